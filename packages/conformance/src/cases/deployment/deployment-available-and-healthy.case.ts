import assert from 'node:assert/strict';
import { deploymentAvailableAndHealthyActivity } from '@chaoskit/chaoscluster-deployment';
import { defineCase } from '../../case.js';
import { activityFailure, stuckDeployment } from './fixtures.js';

export default defineCase({
  activity: deploymentAvailableAndHealthyActivity,
  scenarios: [
    {
      name: 'holds when every replica is available',
      async run(t) {
        await t.deploy('web', 3, { labels: { tier: 'front' } });
        assert.equal(await t.call({ name: 'web', ns: t.ns }), true);
        assert.equal(await t.call({ name: 'web', ns: t.ns, label_selector: 'tier=front' }), true);
        assert.equal(await t.call({ name: 'web', ns: t.ns, label_selector: 'app={name}' }), true);
      },
    },
    {
      name: 'a deployment scaled to 0 is healthy (absent availableReplicas counts as 0)',
      async run(t) {
        await t.deploy('idle', 1);
        await t.apps.patchNamespacedDeployment({
          name: 'idle',
          namespace: t.ns,
          body: [{ op: 'replace', path: '/spec/replicas', value: 0 }],
        });
        // The pods gone is not enough: the controller writes the status (availableReplicas 1 until
        // then) after it, and a loaded machine showed the probe that stale 1 of 0.
        await t.until('idle has no pod, and its controller has seen the scale to 0', async () => {
          const { metadata, status } = await t.apps.readNamespacedDeployment({
            name: 'idle',
            namespace: t.ns,
          });
          const settled =
            (status?.observedGeneration ?? 0) >= (metadata?.generation ?? 1) && !status?.replicas;
          return settled && (await t.podNames('app=idle', true)).length === 0;
        });
        assert.equal(await t.call({ name: 'idle', ns: t.ns }), true);
      },
    },
    {
      name: 'fails, saying how many replicas are available, when not all are',
      async run(t) {
        await stuckDeployment(t, 'stuck', 2);
        const message = await activityFailure(t.call({ name: 'stuck', ns: t.ns }));
        assert.equal(
          message,
          `Deployment 'stuck' in namespace '${t.ns}' is not healthy: 0 of 2 replicas available`,
        );
      },
    },
    {
      name: 'fails with "was not found" for a missing deployment or one the label_selector excludes',
      async run(t) {
        await t.deploy('web', 1);
        const missing = await activityFailure(t.call({ name: 'ghost', ns: t.ns }));
        assert.equal(missing, `Deployment 'ghost' was not found in namespace '${t.ns}'`);
        const excluded = await activityFailure(
          t.call({ name: 'web', ns: t.ns, label_selector: 'tier=back' }),
        );
        assert.equal(
          excluded,
          `Deployment 'web' was not found in namespace '${t.ns}' matching label selector 'tier=back'`,
        );
      },
    },
    {
      name: 'bad names, selectors and arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: ['web'], ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web,app=x', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'tier in (' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: true }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: '-bad' }, 'ns');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 5 }, 'timeout');
      },
    },
  ],
});
