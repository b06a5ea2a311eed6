import assert from 'node:assert/strict';
import { execInPodsActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { execRunning } from '../../running/pod-scenarios.js';
import { createPod } from './fixtures.js';

export default defineCase({
  activity: execInPodsActivity,
  scenarios: [
    {
      name: 'returns the real stdout, the real stderr and the integer exit code',
      async run(t) {
        await t.createPods(['shell']);
        const [r, ...rest] = await t.call({
          ns: t.ns,
          cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'],
        });
        assert.equal(rest.length, 0);
        assert.ok(r);
        assert.equal(r.pod_name, 'shell');
        assert.equal(r.container_name, 'main');
        assert.equal(r.exit_code, 3);
        assert.equal(r.stdout, 'out\n');
        assert.equal(r.stderr, 'err\n');
        assert.equal(r.timed_out, false);
        assert.deepEqual(r.cmd, ['sh', '-c', 'echo out; echo err >&2; exit 3']);
        const [ok] = await t.call({ ns: t.ns, cmd: 'echo fine' });
        assert.equal(ok?.exit_code, 0);
        assert.equal(ok?.stdout, 'fine\n');
        assert.equal(ok?.stderr, '');
        assert.equal(ok?.message, '');
      },
    },
    {
      name: 'a string cmd is split like a shell would: quotes are respected',
      async run(t) {
        await t.createPods(['quotes']);
        const [r] = await t.call({
          ns: t.ns,
          cmd: `sh -c 'echo "a b"; printf "%s|" $0 "c  d"' x`,
        });
        assert.equal(r?.exit_code, 0);
        assert.equal(r?.stdout, 'a b\nx|c  d|');
        assert.equal(r?.cmd, `sh -c 'echo "a b"; printf "%s|" $0 "c  d"' x`);
      },
    },
    {
      name: 'a command still running at request_timeout is reported as timed out, with its output so far',
      async run(t) {
        await t.createPods(['slow']);
        const started = Date.now();
        // The timeout counts from before the exec connection opens: on a loaded machine opening
        // it can take most of a second, so 5 s leaves the echo time to arrive, and a command of
        // 120 s tells a return at the timeout from one at the command's end.
        const [r] = await t.call({
          ns: t.ns,
          cmd: ['sh', '-c', 'echo begun; sleep 120'],
          request_timeout: 5,
        });
        const elapsed = Date.now() - started;
        assert.ok(elapsed < 60_000, `returned after ${elapsed} ms, not at the 5 s timeout`);
        assert.equal(r?.timed_out, true);
        assert.equal(r?.exit_code, null);
        assert.equal(r?.stdout, 'begun\n');
        assert.match(r?.message ?? '', /still running after 5 s/);
      },
    },
    {
      name: 'without container_name the default container is used; with it, pods without it are skipped',
      async run(t) {
        const labels = { app: 'multi' };
        await createPod(t, 'annotated', {
          labels,
          annotations: { 'kubectl.kubernetes.io/default-container': 'sidecar' },
          containers: ['app', 'sidecar'],
        });
        await createPod(t, 'plain', { labels, containers: ['app', 'sidecar'] });
        await createPod(t, 'solo', { labels, containers: ['only'] });
        const all = await t.call({
          ns: t.ns,
          label_selector: 'app=multi',
          all: true,
          cmd: 'true',
        });
        assert.deepEqual(
          all.map((r) => [r.pod_name, r.container_name, r.exit_code]),
          [
            ['annotated', 'sidecar', 0],
            ['plain', 'app', 0],
            ['solo', 'only', 0],
          ],
        );
        const named = await t.call({
          ns: t.ns,
          label_selector: 'app=multi',
          all: true,
          cmd: 'true',
          container_name: 'sidecar',
        });
        assert.deepEqual(
          named.map((r) => [r.pod_name, r.container_name]),
          [
            ['annotated', 'sidecar'],
            ['plain', 'sidecar'],
          ],
        );
      },
    },
    {
      name: 'pods are selected as terminate_pods selects them; the selected pods run the command at once',
      async run(t) {
        await t.createPods(['w-a', 'w-b', 'w-c', 'w-d'], { app: 'w' });
        await t.createPods(['other'], { app: 'other' });
        const half = await t.call({
          ns: t.ns,
          label_selector: 'app=w',
          mode: 'percentage',
          qty: 50,
          cmd: 'true',
        });
        assert.deepEqual(
          half.map((r) => r.pod_name),
          ['w-a', 'w-b'],
        );
        const pattern = await t.call({ ns: t.ns, name_pattern: '[cd]$', all: true, cmd: 'true' });
        assert.deepEqual(
          pattern.map((r) => r.pod_name),
          ['w-c', 'w-d'],
        );
        const seeded = async () =>
          (await t.call({ ns: t.ns, rand: true, qty: 2, seed: 99, cmd: 'true' })).map((r) => r.pod_name);
        assert.deepEqual(await seeded(), await seeded());
        const started = Date.now();
        const slow = await t.call({
          ns: t.ns,
          label_selector: 'app=w',
          all: true,
          cmd: 'sleep 1',
        });
        assert.equal(slow.length, 4);
        assert.ok(
          slow.every((r) => r.exit_code === 0),
          JSON.stringify(slow),
        );
        const elapsed = Date.now() - started;
        assert.ok(elapsed < 3000, `4 × sleep 1 took ${elapsed} ms: not run concurrently`);
      },
    },
    {
      name: 'bad cmd, mode, order, qty, regex, selector and timeout are refused before any request',
      async run(t) {
        await t.createPods(['keep']);
        await t.expectRefused({ ns: t.ns }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: 42 }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: ['ls', 1] }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: '' }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: 'ps aux | grep nginx' }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: 'echo x > /tmp/f' }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: 'true && false' }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: "echo 'open" }, 'cmd');
        await t.expectRefused({ ns: t.ns, cmd: 'true', mode: 'random' }, 'mode');
        await t.expectRefused({ ns: t.ns, cmd: 'true', order: 'newest' }, 'order');
        await t.expectRefused({ ns: t.ns, cmd: 'true', qty: -1 }, 'qty');
        await t.expectRefused({ ns: t.ns, cmd: 'true', mode: 'percentage', qty: 101 }, 'qty');
        await t.expectRefused({ ns: t.ns, cmd: 'true', name_pattern: '(unclosed' }, 'name_pattern');
        await t.expectRefused({ ns: t.ns, cmd: 'true', label_selector: 'app in (x' }, 'label_selector');
        await t.expectRefused({ ns: t.ns, cmd: 'true', request_timeout: 0 }, 'request_timeout');
        await t.expectRefused({ ns: t.ns, cmd: 'true', request_timeout: '60' }, 'request_timeout');
        await t.expectRefused({ ns: t.ns, cmd: 'true', container_name: 5 }, 'container_name');
        assert.deepEqual(await t.podNames(undefined, true), ['keep']);
      },
    },
    execRunning,
  ],
});
