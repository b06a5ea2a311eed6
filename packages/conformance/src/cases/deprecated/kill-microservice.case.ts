import assert from 'node:assert/strict';
import { killMicroserviceActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { planCall } from '../shared-fixtures.js';
import { callsWarnedOnce, deploymentNames, failureOf, resultOf } from './fixtures.js';

export default defineCase({
  activity: killMicroserviceActivity,
  scenarios: [
    {
      name: 'deletes the deployments, replica sets (apps/v1) and pods labelled name=<name>; warns once',
      async run(t) {
        await t.deploy('web', 2, { labels: { name: 'web' } });
        await t.createPods(['web-debug'], { name: 'web' });
        await t.deploy('other', 1, { labels: { name: 'other' } });
        // A replica set of its own (no deployment owns it): only the replica-set step deletes it.
        await t.apps.createNamespacedReplicaSet({
          namespace: t.ns,
          body: {
            metadata: { name: 'web-orphan', labels: { name: 'web', app: 'web-orphan' } },
            spec: {
              replicas: 1,
              selector: { matchLabels: { app: 'web-orphan' } },
              template: {
                metadata: { labels: { name: 'web', app: 'web-orphan' } },
                spec: { containers: [{ name: 'app', image: 'example.invalid/app:1' }] },
              },
            },
          },
        });
        await t.until('the pod of web-orphan', async () => (await t.podNames('app=web-orphan')).length === 1);
        const sets = await t.apps.listNamespacedReplicaSet({ namespace: t.ns, labelSelector: 'name=web' });
        const [first, second] = await callsWarnedOnce(t, [
          { name: 'web', ns: t.ns },
          { name: 'web', ns: t.ns },
        ]);
        const result = resultOf(first);
        assert.deepEqual(result.deployments, ['web']);
        for (const rs of result.replica_sets)
          assert.ok(
            sets.items.some((s) => s.metadata?.name === rs),
            rs,
          );
        assert.ok(result.pods.includes('web-debug'), JSON.stringify(result.pods));
        assert.ok(
          result.pods.every((p) => p.startsWith('web-')),
          JSON.stringify(result.pods),
        );
        // The second time nothing is left to kill: the deployment step says so.
        assert.match(
          failureOf(second),
          /no deployment of namespace '.*' matches label selector 'name in \(web\)'/,
        );
        assert.deepEqual(await deploymentNames(t), ['other']);
        await t.until('the replica sets of web gone', async () => {
          const left = await t.apps.listNamespacedReplicaSet({ namespace: t.ns, labelSelector: 'name=web' });
          return left.items.length === 0;
        });
        await t.until('the pods of web gone', async () => (await t.podNames('name=web', true)).length === 0);
        assert.equal((await t.podNames('app=other')).length, 1);
      },
    },
    {
      name: 'a label_selector of its own: {name} is replaced in it',
      async run(t) {
        await t.deploy('api', 1, { labels: { tier: 'api' } });
        await t.deploy('keep', 1);
        const result = await t.call({ name: 'api', ns: t.ns, label_selector: 'tier={name}' });
        assert.deepEqual(result.deployments, ['api']);
        assert.deepEqual(await deploymentNames(t), ['keep']);
        await t.until('the pods of api gone', async () => (await t.podNames('tier=api', true)).length === 0);
      },
    },
    {
      name: 'plan mode sends server-side dry runs: nothing is deleted',
      async run(t) {
        await t.deploy('web', 1, { labels: { name: 'web' } });
        const { result } = await planCall(t, { name: 'web', ns: t.ns });
        assert.deepEqual(result.deployments, ['web']);
        assert.deepEqual(await deploymentNames(t), ['web']);
        assert.equal((await t.podNames('name=web')).length, 1);
      },
    },
    {
      name: 'a missing name, a bad selector or namespace and unknown arguments are refused before any request',
      async run(t) {
        await t.deploy('keep', 1, { labels: { name: 'keep' } });
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused(
          { name: 'keep', ns: t.ns, label_selector: 'name in ({name}' },
          'label_selector',
        );
        await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'keep', ns: t.ns, grace_period: 0 }, 'grace_period');
        assert.deepEqual(await deploymentNames(t), ['keep']);
      },
    },
  ],
});
