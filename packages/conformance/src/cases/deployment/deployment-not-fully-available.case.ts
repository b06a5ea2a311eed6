import assert from 'node:assert/strict';
import { deploymentNotFullyAvailableActivity } from '@chaoskit/chaoscluster-deployment';
import { sleep } from '@chaoskit/core';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { defineCase } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { failureAfterTimeout } from '../shared-fixtures.js';
import { activityFailure, replicasOf, stuckDeployment } from './fixtures.js';

async function scale(t: CaseContext, name: string, replicas: number): Promise<void> {
  await t.apps.patchNamespacedDeployment(
    { name, namespace: t.ns, body: { spec: { replicas } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

/** A ResourceQuota of `pods` pods, once the quota controller has counted (then it is enforced). */
async function quota(t: CaseContext, pods: number): Promise<void> {
  await t.core.createNamespacedResourceQuota({
    namespace: t.ns,
    body: { metadata: { name: 'pods' }, spec: { hard: { pods: String(pods) } } },
  });
  await t.until('the quota counted', async () => {
    const q = await t.core.readNamespacedResourceQuota({ name: 'pods', namespace: t.ns });
    return q.status?.hard?.pods === String(pods);
  });
}

export default defineCase({
  activity: deploymentNotFullyAvailableActivity,
  scenarios: [
    {
      name: 'holds at once when a replica is not ready',
      async run(t) {
        await stuckDeployment(t, 'stuck', 2);
        assert.equal(await t.call({ name: 'stuck', ns: t.ns, timeout: 10 }), true);
      },
    },
    {
      name: 'holds after the deployment is scaled past the capacity of its namespace',
      async run(t) {
        // Capacity: the namespace holds 2 pods.
        await quota(t, 2);
        await t.deploy('web', 2);
        const started = Date.now();
        const waiting = t.call({ name: 'web', ns: t.ns, timeout: 30 });
        await sleep(500);
        const scaledAt = Date.now();
        await scale(t, 'web', 4);
        assert.equal(await waiting, true);
        t.log(`deployment_not_fully_available returned ${Date.now() - scaledAt} ms after the scale-up`);
        // It stays so: the quota refuses the third and fourth pods.
        await sleep(1000);
        assert.deepEqual(await replicasOf(t, 'web'), { desired: 4, ready: 2, available: 2 });
        assert.equal(await t.call({ name: 'web', ns: t.ns, timeout: 5 }), true);
        assert.ok(Date.now() - started < 30_000);
      },
    },
    {
      name: 'holds when a pod of the deployment is deleted and cannot be replaced yet',
      async run(t) {
        // The namespace holds exactly 3 pods; a deleted pod keeps its place in the quota while
        // it terminates (30 s), so its replacement waits and the deployment stays short of one.
        await quota(t, 3);
        await t.deploy('web', 3, { podSpec: { terminationGracePeriodSeconds: 30 } });
        const waiting = t.call({ name: 'web', ns: t.ns, timeout: 30 });
        await sleep(500);
        const [victim] = await t.podNames('app=web');
        const deletedAt = Date.now();
        await t.core.deleteNamespacedPod({ name: victim!, namespace: t.ns });
        assert.equal(await waiting, true);
        t.log(`deployment_not_fully_available returned ${Date.now() - deletedAt} ms after a pod was deleted`);
        assert.deepEqual(await replicasOf(t, 'web'), { desired: 3, ready: 2, available: 2 });
      },
    },
    {
      name: 'holds when every pod of the deployment is deleted at once',
      async run(t) {
        await t.deploy('web', 3);
        const waiting = t.call({ name: 'web', ns: t.ns, timeout: 30 });
        await sleep(500);
        const deletedAt = Date.now();
        await t.core.deleteCollectionNamespacedPod({
          namespace: t.ns,
          labelSelector: 'app=web',
          gracePeriodSeconds: 0,
        });
        assert.equal(await waiting, true);
        t.log(
          `deployment_not_fully_available returned ${Date.now() - deletedAt} ms after the pods were deleted`,
        );
      },
    },
    {
      name: 'fails at the timeout when the deployment stays fully available',
      async run(t) {
        await t.deploy('web', 2);
        const message = await failureAfterTimeout(t, { name: 'web', ns: t.ns, timeout: 2 });
        assert.equal(
          message,
          "deployment 'web' failed to stop running within 2s: 2 of 2 replicas ready, it stayed fully available",
        );
      },
    },
    {
      name: 'a missing deployment is reported as not found at the timeout',
      async run(t) {
        const message = await activityFailure(t.call({ name: 'ghost', ns: t.ns, timeout: 1 }));
        assert.equal(
          message,
          `deployment 'ghost' failed to stop running within 1s: it was not found in namespace '${t.ns}'`,
        );
      },
    },
    {
      name: 'bad timeouts, names, selectors and arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 0 }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: null }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 86_401 }, 'timeout');
        await t.expectRefused({ name: 'web.', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'a b' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'app in ({name}' }, 'label_selector');
        await t.expectRefused({ name: 'web', namespace: t.ns }, 'namespace');
      },
    },
  ],
});
