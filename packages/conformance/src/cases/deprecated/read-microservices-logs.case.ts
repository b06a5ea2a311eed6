import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readMicroservicesLogsActivity } from '@chaoskit/chaoscluster-deprecated';
import { writePodLog } from '@chaoskit/cluster';
import { defineCase } from '../../case.js';
import { callsWarnedOnce, resultOf } from './fixtures.js';

export default defineCase({
  activity: readMicroservicesLogsActivity,
  scenarios: [
    {
      name: 'reads the logs of the pods labelled name=<name>, keyed by pod name, as read_pod_logs; warns once',
      async run(t) {
        await t.createPods(['web-1', 'web-2'], { name: 'web' });
        await t.createPods(['other'], { name: 'other' });
        const line = `hello-${randomBytes(4).toString('hex')}`;
        if (t.cluster.podLogFile) await writePodLog({ podLogFile: t.cluster.podLogFile }, [{ text: line }]);
        const [web, nobody] = await callsWarnedOnce(t, [
          { name: 'web', ns: t.ns },
          { name: 'nobody', ns: t.ns },
        ]);
        const logs = resultOf(web);
        assert.deepEqual(Object.keys(logs).sort(), ['web-1', 'web-2']);
        for (const text of Object.values(logs)) {
          assert.equal(typeof text, 'string');
          if (t.cluster.podLogFile) assert.ok(text.includes(line), text);
        }
        assert.deepEqual(resultOf(nobody), {});
      },
    },
    {
      name: 'a missing name with the default selector, a bad last and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, last: 'garbage' }, 'last');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'name in ({name}' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: t.ns, follow: true }, 'follow');
      },
    },
  ],
});
