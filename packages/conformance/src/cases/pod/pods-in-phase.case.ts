import assert from 'node:assert/strict';
import { podsInPhaseActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { phaseRunning } from '../../running/pod-scenarios.js';
import { createPendingPod, expectFailure } from './fixtures.js';

export default defineCase({
  activity: podsInPhaseActivity,
  scenarios: [
    {
      name: 'holds when every matching pod is in the phase (Running by default, or the one given)',
      async run(t) {
        await t.createPods(['web-1', 'web-2'], { app: 'web' });
        await createPendingPod(t, 'queued', { app: 'queue' });
        assert.equal(await t.call({ ns: t.ns, label_selector: 'app=web' }), true);
        assert.equal(await t.call({ ns: t.ns, label_selector: 'app=queue', phase: 'Pending' }), true);
      },
    },
    {
      name: 'fails naming each pod not in the phase, and its phase',
      async run(t) {
        await t.createPods(['web-1', 'web-2'], { app: 'web' });
        await createPendingPod(t, 'web-3', { app: 'web' });
        const message = await expectFailure(t, { ns: t.ns, label_selector: 'app=web' });
        assert.match(message, /pod web-3 is Pending, expected Running/);
        assert.match(message, /1 of 3 pods matching 'app=web'/);
        assert.doesNotMatch(message, /web-1|web-2/);
        const pending = await expectFailure(t, { ns: t.ns, label_selector: 'app=web', phase: 'Pending' });
        assert.match(
          pending,
          /pod web-1 is Running, expected Pending; pod web-2 is Running, expected Pending/,
        );
      },
    },
    {
      name: 'fails saying so when no pod matches',
      async run(t) {
        await t.createPods(['web-1'], { app: 'web' });
        const message = await expectFailure(t, { ns: t.ns, label_selector: 'app=gone' });
        assert.match(message, new RegExp(`no pod matched label selector 'app=gone' in namespace '${t.ns}'`));
      },
    },
    {
      name: 'a missing or bad selector and an unknown phase are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'label_selector');
        await t.expectRefused({ ns: t.ns, label_selector: `app=${'x'.repeat(70)}` }, 'label_selector');
        await t.expectRefused({ ns: t.ns, label_selector: 'app=web', phase: 'running' }, 'phase');
        await t.expectRefused({ ns: t.ns, label_selector: 'app=web', phase: null }, 'phase');
      },
    },
    phaseRunning,
  ],
});
