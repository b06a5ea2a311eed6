import assert from 'node:assert/strict';
import { deleteDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { defineCase } from '../../case.js';
import { activityFailure, deploymentNames } from './fixtures.js';

export default defineCase({
  activity: deleteDeploymentActivity,
  scenarios: [
    {
      name: 'the default selector deletes every deployment labelled name=<name>; their pods follow',
      async run(t) {
        await t.deploy('web', 2, { labels: { name: 'web' } });
        await t.deploy('web-canary', 1, { labels: { name: 'web' } });
        await t.deploy('other', 1, { labels: { name: 'other' } });
        const result = await t.call({ name: 'web', ns: t.ns });
        assert.deepEqual([...result.deployments].sort(), ['web', 'web-canary']);
        assert.deepEqual(await deploymentNames(t), ['other']);
        // Background propagation: the replica sets and then the pods are collected.
        await t.until('the replica sets of web gone', async () => {
          const sets = await t.apps.listNamespacedReplicaSet({ namespace: t.ns, labelSelector: 'name=web' });
          return sets.items.length === 0;
        });
        await t.until('the pods of web gone', async () => (await t.podNames('name=web', true)).length === 0);
        assert.equal((await t.podNames('app=other')).length, 1);
      },
    },
    {
      name: 'a label_selector without {name} is used as given; with {name} it is formatted',
      async run(t) {
        await t.deploy('blue', 1, { labels: { tier: 'canary' } });
        await t.deploy('green', 1, { labels: { tier: 'stable' } });
        await t.deploy('api', 1);
        const byTier = await t.call({ name: 'ignored', ns: t.ns, label_selector: 'tier=canary' });
        assert.deepEqual(byTier.deployments, ['blue']);
        const byApp = await t.call({ name: 'api', ns: t.ns, label_selector: 'app={name}' });
        assert.deepEqual(byApp.deployments, ['api']);
        assert.deepEqual(await deploymentNames(t), ['green']);
      },
    },
    {
      name: 'nothing matching is ActivityFailed explaining that the default selector is about the label name',
      async run(t) {
        await t.deploy('web', 1); // labelled app=web only
        const message = await activityFailure(t.call({ name: 'web', ns: t.ns }));
        assert.match(message, /no deployment of namespace '.*' matches label selector 'name in \(web\)'/);
        assert.match(message, /labelled name=web, not the deployment whose own name is 'web'/);
        assert.match(message, /a deployment called 'web' exists but has no such label: label it name=web/);
        assert.match(message, /'app=web'/);
        const none = await activityFailure(t.call({ name: 'ghost', ns: t.ns }));
        assert.match(none, /there is no deployment called 'ghost'/);
        const custom = await activityFailure(t.call({ name: 'x', ns: t.ns, label_selector: 'tier=none' }));
        assert.match(custom, /matches label selector 'tier=none'; nothing was deleted$/);
        assert.deepEqual(await deploymentNames(t), ['web']);
      },
    },
    {
      name: 'bad names, selectors and arguments are refused before any request',
      async run(t) {
        await t.deploy('keep', 1, { labels: { name: 'keep' } });
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 42, ns: t.ns }, 'name');
        await t.expectRefused({ name: '', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'keep', ns: t.ns, label_selector: 'name in (keep' }, 'label_selector');
        await t.expectRefused({ name: 'not a label', ns: t.ns }, 'label_selector');
        await t.expectRefused({ name: 'keep', ns: t.ns, label_selector: 7 }, 'label_selector');
        await t.expectRefused({ name: 'keep', ns: 'UPPER' }, 'ns');
        await t.expectRefused({ name: 'keep', ns: t.ns, grace_period: 0 }, 'grace_period');
        assert.deepEqual(await deploymentNames(t), ['keep']);
      },
    },
  ],
});
