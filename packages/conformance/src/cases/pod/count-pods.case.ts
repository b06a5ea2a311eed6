import assert from 'node:assert/strict';
import { countPodsActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { createPendingPod } from './fixtures.js';

export default defineCase({
  activity: countPodsActivity,
  scenarios: [
    {
      name: 'counts the matching pods, in a given phase when one is given, as an integer',
      async run(t) {
        await t.createPods(['c-1', 'c-2', 'c-3'], { app: 'c' });
        await createPendingPod(t, 'c-pending', { app: 'c' });
        await t.createPods(['d-1'], { app: 'd' });
        const count = async (args: Record<string, unknown>) => {
          const n = await t.call({ ns: t.ns, ...args });
          assert.ok(Number.isInteger(n), `an integer, got ${JSON.stringify(n)}`);
          return n;
        };
        assert.equal(await count({ label_selector: 'app=c' }), 4);
        assert.equal(await count({ label_selector: 'app=c', phase: 'Running' }), 3);
        assert.equal(await count({ label_selector: 'app=c', phase: 'Pending' }), 1);
        assert.equal(await count({ label_selector: 'app=c', phase: 'Succeeded' }), 0);
        assert.equal(await count({ label_selector: 'app in (c,d),app!=d' }), 4);
        assert.equal(await count({ label_selector: '' }), 5);
        assert.equal(await count({ label_selector: 'app=none' }), 0);
      },
    },
    {
      name: 'a missing or bad selector, an unknown phase and a bad namespace are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'label_selector');
        await t.expectRefused({ ns: t.ns, label_selector: 'app in (c' }, 'label_selector');
        await t.expectRefused({ ns: t.ns, label_selector: 'app=c', phase: 'running' }, 'phase');
        await t.expectRefused({ ns: t.ns, label_selector: 'app=c', phase: 'Terminating' }, 'phase');
        await t.expectRefused({ ns: 'Bad_Ns', label_selector: 'app=c' }, 'ns');
      },
    },
  ],
});
