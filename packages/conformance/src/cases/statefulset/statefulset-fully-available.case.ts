import assert from 'node:assert/strict';
import { statefulsetFullyAvailableActivity } from '@chaoskit/chaoscluster-statefulset';
import { defineCase } from '../../case.js';
import { neverAvailableScenario, probeWhilePlaced } from '../shared-fixtures.js';
import { activityFailure, readyStatefulSet, replicasOf, stuckStatefulSet } from './fixtures.js';

export default defineCase({
  activity: statefulsetFullyAvailableActivity,
  scenarios: [
    {
      name: 'holds at once when every replica is ready',
      async run(t) {
        await readyStatefulSet(t, 'db', 2);
        assert.equal(await t.call({ name: 'db', ns: t.ns, timeout: 10 }), true);
        assert.equal(await t.call({ name: 'db', ns: t.ns, label_selector: 'app={name}' }), true);
      },
    },
    {
      name: 'returns once the stateful set becomes available, before its timeout (D76)',
      async run(t) {
        await stuckStatefulSet(t, 'late', 2);
        // Once the probe watches, the pods made schedulable: the controller replaces the pending
        // pods with ones that can run.
        const { waiting } = await probeWhilePlaced(t, { kind: 'StatefulSet', name: 'late' }, null);
        // The controller may replace a pod itself (the new template): one already gone is fine.
        for (const pod of await t.podNames('app=late'))
          await t.core.deleteNamespacedPod({ name: pod, namespace: t.ns }).catch((err: { code?: number }) => {
            if (err.code !== 404) throw err;
          });
        assert.equal(await waiting, true);
        const { desired, ready } = await replicasOf(t, 'late');
        assert.equal(ready, desired);
      },
    },
    neverAvailableScenario('stateful set', stuckStatefulSet, ' (D76)'),
    {
      name: 'a missing stateful set is reported as not found at the timeout',
      async run(t) {
        assert.equal(
          await activityFailure(t.call({ name: 'ghost', ns: t.ns, timeout: 1 })),
          `stateful set 'ghost' failed to recover within 1s: it was not found in namespace '${t.ns}'`,
        );
      },
    },
    {
      name: 'bad timeouts, names, selectors and arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ name: 'db', ns: t.ns, timeout: 0 }, 'timeout');
        await t.expectRefused({ name: 'db', ns: t.ns, timeout: '30' }, 'timeout');
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'DB', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'db', ns: t.ns, label_selector: '=x' }, 'label_selector');
        await t.expectRefused({ name: 'db', ns: t.ns, replicas: 3 }, 'replicas');
      },
    },
  ],
});
