import assert from 'node:assert/strict';
import { deletePodsActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';

export default defineCase({
  activity: deletePodsActivity,
  scenarios: [
    {
      name: 'deletes every pod labelled name=<name> at once, without a grace period; other pods stay',
      async run(t) {
        // createPods gives each pod a 30 s grace period: only a deletion without one removes them now.
        await t.createPods(['web-1', 'web-2', 'web-3'], { name: 'web' });
        await t.createPods(['api-1'], { name: 'api' });
        const result = await t.call({ name: 'web', ns: t.ns });
        assert.deepEqual(result.pods, ['web-1', 'web-2', 'web-3']);
        assert.deepEqual(await t.podNames('name=web', true), [], 'no web pod left, not even Terminating');
        assert.deepEqual(await t.podNames(undefined, true), ['api-1']);
      },
    },
    {
      name: 'a label_selector of its own: {name} is replaced; without {name} the name is not used',
      async run(t) {
        await t.createPods(['cache-1', 'cache-2'], { tier: 'cache', name: 'shop' });
        await t.createPods(['db-1'], { tier: 'db', name: 'shop' });
        await t.createPods(['front-1'], { tier: 'cache', name: 'front' });
        const withName = await t.call({
          name: 'shop',
          ns: t.ns,
          label_selector: 'tier=cache,name={name}',
        });
        assert.deepEqual(withName.pods, ['cache-1', 'cache-2']);
        assert.deepEqual(await t.podNames(undefined, true), ['db-1', 'front-1']);
        const without = await t.call({ name: 'ignored', ns: t.ns, label_selector: 'tier=db' });
        assert.deepEqual(without.pods, ['db-1']);
        assert.deepEqual(await t.podNames(undefined, true), ['front-1']);
      },
    },
    {
      name: 'no matching pod is not an error: nothing is deleted',
      async run(t) {
        await t.createPods(['keep'], { name: 'keep' });
        const result = await t.call({ name: 'nobody', ns: t.ns });
        assert.deepEqual(result.pods, []);
        assert.deepEqual(await t.podNames(undefined, true), ['keep']);
      },
    },
    {
      name: 'bad name, selector and namespace are refused before any request; nothing changes',
      async run(t) {
        await t.createPods(['keep'], { name: 'keep' });
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 7, ns: t.ns }, 'name');
        await t.expectRefused({ name: '', ns: t.ns }, 'name');
        await t.expectRefused(
          { name: 'keep', ns: t.ns, label_selector: 'name in ({name}' },
          'label_selector',
        );
        await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
        assert.deepEqual(await t.podNames(undefined, true), ['keep']);
      },
    },
  ],
});
