import assert from 'node:assert/strict';
import { deleteReplicaSetActivity } from '@chaoskit/chaoscluster-replicaset';
import { isChaosError } from '@chaoskit/core';
import type { V1ReplicaSet } from '@kubernetes/client-node';
import { defineCase } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { activityFailure, planCall } from '../shared-fixtures.js';

/** A bare ReplicaSet (no deployment) whose pods are running. */
async function replicaSet(t: CaseContext, name: string, replicas: number, labels: Record<string, string>) {
  const body: V1ReplicaSet = {
    metadata: { name, labels },
    spec: {
      replicas,
      selector: { matchLabels: { rs: name } },
      template: {
        metadata: { labels: { rs: name } },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'app', image: 'example.invalid/app:1' }],
        },
      },
    },
  };
  await t.apps.createNamespacedReplicaSet({ namespace: t.ns, body });
  await t.until(`replica set ${name} ready`, async () => {
    const rs = await t.apps.readNamespacedReplicaSet({ name, namespace: t.ns });
    return (rs.status?.readyReplicas ?? 0) === replicas;
  });
}

async function replicaSets(t: CaseContext, labelSelector?: string): Promise<V1ReplicaSet[]> {
  return (
    await t.apps.listNamespacedReplicaSet({ namespace: t.ns, ...(labelSelector ? { labelSelector } : {}) })
  ).items;
}

const names = (list: V1ReplicaSet[]) => list.map((r) => r.metadata!.name!).sort();

export default defineCase({
  activity: deleteReplicaSetActivity,
  scenarios: [
    {
      name: 'deletes the replica sets labelled name=<name> (apps/v1, D14); their pods go, the others stay',
      async run(t) {
        await replicaSet(t, 'web-a', 1, { name: 'web' });
        await replicaSet(t, 'web-b', 1, { name: 'web' });
        await replicaSet(t, 'api', 2, { name: 'api' });
        assert.deepEqual(await t.call({ name: 'web', ns: t.ns }), { replica_sets: ['web-a', 'web-b'] });
        assert.deepEqual(names(await replicaSets(t)), ['api']);
        await t.until('the web pods gone', async () =>
          (await t.podNames('rs in (web-a,web-b)', true)).length === 0 ? true : undefined,
        );
        assert.equal((await t.podNames('rs=api')).length, 2);
      },
    },
    {
      name: "a deployment's replica set is deleted and the deployment makes it again, with new pods",
      async run(t) {
        await t.deploy('web', 2);
        await t.deploy('other', 2);
        const [before] = await replicaSets(t, 'app=web');
        const oldPods = await t.podNames('app=web');
        assert.deepEqual(await t.call({ name: 'web', ns: t.ns, label_selector: 'app={name}' }), {
          replica_sets: [before!.metadata!.name!],
        });
        await t.until('a new web replica set with 2 new ready pods', async () => {
          const [now] = await replicaSets(t, 'app=web');
          const pods = await t.podNames('app=web');
          return (
            now &&
            now.metadata?.uid !== before!.metadata?.uid &&
            (now.status?.readyReplicas ?? 0) === 2 &&
            pods.every((p) => !oldPods.includes(p))
          );
        });
      },
    },
    {
      name: 'nothing matching is a failure that says why, and deletes nothing (D78)',
      async run(t) {
        await replicaSet(t, 'web', 1, { app: 'web' });
        const message = await activityFailure(t.call({ name: 'web', ns: t.ns }));
        assert.equal(
          message,
          `no replica set of namespace '${t.ns}' matches label selector 'name in (web)'; nothing was deleted. The default label_selector "name in ({name})" matches replica sets labelled name=web, not the replica set whose own name is 'web'; a replica set called 'web' exists but has no such label: give a label_selector that matches its labels (e.g. 'app=web').`,
        );
        assert.deepEqual(names(await replicaSets(t)), ['web']);
      },
    },
    {
      name: 'the pod share rail refuses a label selection of most of the namespace’s pods; a replica set named by name is its target (D74, D88)',
      async run(t) {
        await replicaSet(t, 'web', 3, { name: 'web', tier: 'front' });
        const err = await t.call({ name: 'web', ns: t.ns, label_selector: 'tier=front' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(isChaosError(err, 'Refused'), `expected a refusal, got ${String(err)}`);
        assert.deepEqual(names(await replicaSets(t)), ['web']);
        assert.equal((await t.podNames('rs=web')).length, 3);
        assert.deepEqual(await t.call({ name: 'web', ns: t.ns }), { replica_sets: ['web'] });
        assert.deepEqual(names(await replicaSets(t)), []);
      },
    },
    {
      name: 'plan mode sends a server-side dry run: the replica set stays',
      async run(t) {
        await replicaSet(t, 'web', 1, { name: 'web' });
        assert.deepEqual((await planCall(t, { name: 'web', ns: t.ns })).result, { replica_sets: ['web'] });
        assert.deepEqual(names(await replicaSets(t)), ['web']);
      },
    },
    {
      name: 'a missing name, a bad selector and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'name in ({name}' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'web', ns: t.ns, grace_period: 0 }, 'grace_period');
      },
    },
  ],
});
