import assert from 'node:assert/strict';
import { statefulsetNotFullyAvailableActivity } from '@chaoskit/chaoscluster-statefulset';
import { defineCase } from '../../case.js';
import { NO_SUCH_NODE } from '../../workload-doc.js';
import { probeWhilePlaced } from '../shared-fixtures.js';
import { activityFailure, readyStatefulSet, replicasOf, stuckStatefulSet } from './fixtures.js';

export default defineCase({
  activity: statefulsetNotFullyAvailableActivity,
  scenarios: [
    {
      name: 'holds at once when a replica is not ready',
      async run(t) {
        await stuckStatefulSet(t, 'stuck', 2);
        assert.equal(await t.call({ name: 'stuck', ns: t.ns, timeout: 10 }), true);
      },
    },
    {
      name: 'holds once an update leaves a replica that cannot run, before its timeout (D76)',
      async run(t) {
        await readyStatefulSet(t, 'db', 2);
        // A rolling update to a template no node can run: the replaced pod stays Pending.
        const { waiting } = await probeWhilePlaced(t, { kind: 'StatefulSet', name: 'db' }, NO_SUCH_NODE);
        assert.equal(await waiting, true);
        const { desired, ready } = await replicasOf(t, 'db');
        assert.notEqual(ready, desired);
      },
    },
    {
      name: 'fails after the timeout when it stays fully available (D76)',
      async run(t) {
        await readyStatefulSet(t, 'db', 1);
        const message = await activityFailure(t.call({ name: 'db', ns: t.ns, timeout: 2 }));
        assert.equal(
          message,
          "stateful set 'db' failed to stop running within 2s: 1 of 1 replica ready, it stayed fully available",
        );
        assert.deepEqual(await replicasOf(t, 'db'), { desired: 1, ready: 1 });
      },
    },
    {
      name: 'bad timeouts, names and arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ name: 'db', ns: t.ns, timeout: -1 }, 'timeout');
        await t.expectRefused({ name: 'db', ns: t.ns, timeout: 1.5 }, 'timeout');
        await t.expectRefused({ name: 'Db_1', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'db', ns: t.ns, label_selector: 'app in ({name}' }, 'label_selector');
      },
    },
  ],
});
