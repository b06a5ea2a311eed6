import assert from 'node:assert/strict';
import { podIsNotAvailableActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { createPendingPod, expectFailure } from './fixtures.js';

export default defineCase({
  activity: podIsNotAvailableActivity,
  scenarios: [
    {
      name: 'holds when no pod labelled name=<name> is Running, also when there is none',
      async run(t) {
        await createPendingPod(t, 'queued', { name: 'queue' });
        await t.createPods(['web-1'], { name: 'web' });
        assert.equal(await t.call({ name: 'queue', ns: t.ns }), true);
        assert.equal(await t.call({ name: 'nobody', ns: t.ns }), true);
      },
    },
    {
      name: 'fails naming each Running pod',
      async run(t) {
        await t.createPods(['web-1', 'web-2'], { name: 'web' });
        await createPendingPod(t, 'web-3', { name: 'web' });
        const message = await expectFailure(t, { name: 'web', ns: t.ns });
        assert.match(message, /pod web-1 is Running/);
        assert.match(message, /pod web-2 is Running/);
        assert.doesNotMatch(message, /web-3/);
        assert.match(message, /name in \(web\)/);
      },
    },
    {
      name: 'holds once the pods are gone',
      async run(t) {
        await t.createPods(['web-1'], { name: 'web' });
        await t.core.deleteNamespacedPod({ name: 'web-1', namespace: t.ns, gracePeriodSeconds: 0 });
        await t.until('web-1 gone', async () => (await t.podNames('name=web', true)).length === 0);
        assert.equal(await t.call({ name: 'web', ns: t.ns }), true);
      },
    },
    {
      name: 'a label_selector of its own replaces the default',
      async run(t) {
        await t.createPods(['api-1'], { tier: 'api' });
        const message = await expectFailure(t, { name: 'unused', ns: t.ns, label_selector: 'tier=api' });
        assert.match(message, /pod api-1 is Running/);
      },
    },
    {
      name: 'a missing name and a bad selector are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ ns: t.ns, name: '' }, 'name');
        await t.expectRefused({ ns: t.ns, name: 'web', label_selector: 'name in ({name}' }, 'label_selector');
      },
    },
  ],
});
