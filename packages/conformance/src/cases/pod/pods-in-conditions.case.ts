import assert from 'node:assert/strict';
import { podsInConditionsActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { conditionsRunning } from '../../running/pod-scenarios.js';
import { createPendingPod, expectFailure } from './fixtures.js';

const ready = { type: 'Ready', status: 'True' };

export default defineCase({
  activity: podsInConditionsActivity,
  scenarios: [
    {
      name: 'holds when every matching pod has every given condition',
      async run(t) {
        await t.createPods(['web-1', 'web-2'], { app: 'web' });
        await createPendingPod(t, 'queued', { app: 'queue' });
        assert.equal(await t.call({ ns: t.ns, label_selector: 'app=web', conditions: [ready] }), true);
        assert.equal(
          await t.call({
            ns: t.ns,
            label_selector: 'app=web',
            conditions: [ready, { status: 'True', type: 'PodScheduled' }],
          }),
          true,
        );
        assert.equal(
          await t.call({
            ns: t.ns,
            label_selector: 'app=queue',
            conditions: [{ type: 'PodScheduled', status: 'False' }],
          }),
          true,
        );
      },
    },
    {
      name: 'fails naming each pod and the condition that is not as expected',
      async run(t) {
        await t.createPods(['web-1'], { app: 'web' });
        await createPendingPod(t, 'web-2', { app: 'web' });
        const message = await expectFailure(t, { ns: t.ns, label_selector: 'app=web', conditions: [ready] });
        assert.match(message, /pod web-2 has no condition Ready, expected Ready=True/);
        assert.doesNotMatch(message, /web-1/);
        const notReady = await expectFailure(t, {
          ns: t.ns,
          label_selector: 'app=web',
          conditions: [{ type: 'Ready', status: 'False' }],
        });
        assert.match(notReady, /pod web-1 has Ready=True, expected Ready=False/);
      },
    },
    {
      name: 'a pod without any condition yet counts as having none (not a crash)',
      async run(t) {
        await createPendingPod(t, 'unseen', { app: 'unseen' }, 'unscheduled');
        const pod = await t.core.readNamespacedPod({ name: 'unseen', namespace: t.ns });
        assert.equal(pod.status?.conditions, undefined, 'the fixture pod has no conditions');
        const message = await expectFailure(t, {
          ns: t.ns,
          label_selector: 'app=unseen',
          conditions: [ready],
        });
        assert.match(message, /pod unseen has no condition Ready, expected Ready=True/);
      },
    },
    {
      name: 'fails saying so when no pod matches',
      async run(t) {
        const message = await expectFailure(t, { ns: t.ns, label_selector: 'app=gone', conditions: [ready] });
        assert.match(message, /no pod matched label selector 'app=gone'/);
      },
    },
    {
      name: 'bad conditions and selectors are refused before any request',
      async run(t) {
        const sel = { ns: t.ns, label_selector: 'app=web' };
        await t.expectRefused(sel, 'conditions');
        await t.expectRefused({ ...sel, conditions: [] }, 'conditions');
        await t.expectRefused({ ...sel, conditions: ready }, 'conditions');
        await t.expectRefused({ ...sel, conditions: [{ type: 'Ready', status: true }] }, 'conditions');
        await t.expectRefused({ ...sel, conditions: [{ type: 'Ready' }] }, 'conditions');
        await t.expectRefused({ ...sel, conditions: [{ ...ready, reason: 'x' }] }, 'conditions');
        await t.expectRefused({ ns: t.ns, conditions: [ready] }, 'label_selector');
        await t.expectRefused(
          { ns: t.ns, label_selector: 'app in (', conditions: [ready] },
          'label_selector',
        );
      },
    },
    conditionsRunning,
  ],
});
