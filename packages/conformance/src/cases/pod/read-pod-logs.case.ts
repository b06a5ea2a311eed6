import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { writePodLog } from '@chaoskit/cluster';
import { defineCase } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { logsRunning } from '../../running/pod-scenarios.js';
import { createPod, expectFailure } from './fixtures.js';

const marker = (what: string) => `${what}-${randomBytes(4).toString('hex')}`;

/** The local provider's kwok serves every pod's log from one file the case can write to. */
function logFile(t: CaseContext): { podLogFile: string } | undefined {
  if (t.cluster.podLogFile) return { podLogFile: t.cluster.podLogFile };
  t.log('skipped: writing log lines needs the local provider (kwok pod log file)');
  return undefined;
}

export default defineCase({
  activity: readPodLogsActivity,
  scenarios: [
    {
      name: 'reads the logs of the pods labelled name=<name>, keyed by pod name, lines timestamped',
      async run(t) {
        await t.createPods(['web-1', 'web-2'], { name: 'web' });
        await t.createPods(['other'], { name: 'other' });
        const file = logFile(t);
        const line = marker('hello');
        if (file) await writePodLog(file, [{ text: line }]);
        const result = await t.call({ name: 'web', ns: t.ns });
        assert.deepEqual(Object.keys(result).sort(), ['web-1', 'web-2']);
        for (const text of Object.values(result)) {
          assert.equal(typeof text, 'string');
          if (!file) continue;
          assert.ok(text.includes(line), text);
          assert.match(text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /m, 'timestamped lines');
        }
        assert.deepEqual(await t.call({ name: 'nobody', ns: t.ns }), {});
      },
    },
    {
      name: '`last` keeps only the lines of the last N seconds, as a number or a human delta',
      async run(t) {
        const file = logFile(t);
        if (!file) return;
        await t.createPods(['web-1'], { name: 'web' });
        const old = marker('two-hours-ago');
        const recent = marker('just-now');
        await writePodLog(file, [
          { text: old, at: new Date(Date.now() - 2 * 3600_000) },
          { text: recent, at: new Date() },
        ]);
        const all = await t.call({ name: 'web', ns: t.ns });
        assert.ok(all['web-1']?.includes(old) && all['web-1'].includes(recent), 'without last: every line');
        for (const last of ['10 minutes', '10m', '1h', 600, '600', '1 hour 30 minutes ago']) {
          const text = (await t.call({ name: 'web', ns: t.ns, last }))['web-1'] ?? '';
          assert.ok(text.includes(recent), `last ${JSON.stringify(last)} keeps the recent line`);
          assert.ok(!text.includes(old), `last ${JSON.stringify(last)} drops the line of two hours ago`);
        }
        const wide = (await t.call({ name: 'web', ns: t.ns, last: '3 hours' }))['web-1'] ?? '';
        assert.ok(wide.includes(old) && wide.includes(recent), 'last 3 hours keeps both');
      },
    },
    {
      name: "from_previous reads the previous container's logs",
      async run(t) {
        const file = logFile(t);
        if (!file) return;
        await t.createPods(['web-1'], { name: 'web' });
        const current = marker('current-run');
        await writePodLog(file, [{ text: current }]);
        const previous = (await t.call({ name: 'web', ns: t.ns, from_previous: true }))['web-1'];
        assert.match(previous ?? '', /chaoskit fake pod previous run/);
        assert.ok(!previous?.includes(current), 'not the current logs');
        const now = (await t.call({ name: 'web', ns: t.ns }))['web-1'];
        assert.ok(now?.includes(current));
      },
    },
    {
      name: 'label_selector alone; the default container or container_name; a container the pod lacks fails',
      async run(t) {
        await createPod(t, 'duo', { labels: { app: 'logs' }, containers: ['app', 'sidecar'] });
        const byDefault = await t.call({ ns: t.ns, label_selector: 'app=logs' });
        assert.deepEqual(Object.keys(byDefault), ['duo']);
        const named = await t.call({
          ns: t.ns,
          label_selector: 'app=logs',
          container_name: 'sidecar',
        });
        assert.deepEqual(Object.keys(named), ['duo']);
        const message = await expectFailure(t, {
          ns: t.ns,
          label_selector: 'app=logs',
          container_name: 'nope',
        });
        assert.match(message, /duo/);
        assert.match(message, /nope/);
      },
    },
    {
      name: 'bad name, last, flags and selectors are refused before any request',
      async run(t) {
        await t.createPods(['web-1'], { name: 'web' });
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ ns: t.ns, name: null }, 'name');
        await t.expectRefused({ ns: t.ns, label_selector: 'tier in ({name})' }, 'name');
        await t.expectRefused({ ns: t.ns, name: 'web', last: 'garbage' }, 'last');
        await t.expectRefused({ ns: t.ns, name: 'web', last: 'in 5 minutes' }, 'last');
        await t.expectRefused({ ns: t.ns, name: 'web', last: -1 }, 'last');
        await t.expectRefused({ ns: t.ns, name: 'web', last: 1.5 }, 'last');
        await t.expectRefused({ ns: t.ns, name: 'web', last: true }, 'last');
        await t.expectRefused({ ns: t.ns, name: 'web', from_previous: 'yes' }, 'from_previous');
        await t.expectRefused({ ns: t.ns, name: 'web', label_selector: 'name in ({name}' }, 'label_selector');
        await t.expectRefused({ ns: t.ns, name: 'web', container_name: 3 }, 'container_name');
      },
    },
    logsRunning,
  ],
});
