import assert from 'node:assert/strict';
import { podsNotInPhaseActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { createPendingPod, expectFailure } from './fixtures.js';

export default defineCase({
  activity: podsNotInPhaseActivity,
  scenarios: [
    {
      name: 'holds when no matching pod is in the phase (Running by default, or the one given)',
      async run(t) {
        await createPendingPod(t, 'queued-1', { app: 'queue' });
        await createPendingPod(t, 'queued-2', { app: 'queue' }, 'unscheduled');
        await t.createPods(['web-1'], { app: 'web' });
        assert.equal(await t.call({ ns: t.ns, label_selector: 'app=queue' }), true);
        assert.equal(await t.call({ ns: t.ns, label_selector: 'app=web', phase: 'Pending' }), true);
      },
    },
    {
      name: 'fails naming each pod that is in the phase',
      async run(t) {
        await t.createPods(['web-1'], { app: 'web' });
        await createPendingPod(t, 'web-2', { app: 'web' });
        const message = await expectFailure(t, { ns: t.ns, label_selector: 'app=web' });
        assert.match(message, /pod web-1 is Running, expected not to be Running/);
        assert.doesNotMatch(message, /web-2/);
        const pending = await expectFailure(t, { ns: t.ns, label_selector: 'app=web', phase: 'Pending' });
        assert.match(pending, /pod web-2 is Pending, expected not to be Pending/);
      },
    },
    {
      name: 'fails saying so when no pod matches',
      async run(t) {
        const message = await expectFailure(t, { ns: t.ns, label_selector: 'app=gone' });
        assert.match(message, /no pod matched label selector 'app=gone'/);
      },
    },
    {
      name: 'a missing or bad selector and an unknown phase are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'label_selector');
        await t.expectRefused({ ns: t.ns, label_selector: 'app in (web' }, 'label_selector');
        await t.expectRefused({ ns: t.ns, label_selector: 'app=web', phase: 'Crashing' }, 'phase');
      },
    },
  ],
});
