import assert from 'node:assert/strict';
import type {
  allPodsHealthyActivity,
  execInPodsActivity,
  podsInConditionsActivity,
  podsInPhaseActivity,
  readPodLogsActivity,
  terminatePodsActivity,
} from '@chaoskit/chaoscluster-pod';
import { execText } from '@chaoskit/cluster';
import type { Scenario } from '../case.js';
import type { CaseContext } from '../case-context.js';
import { activityFailure } from '../cases/shared-fixtures.js';
import { placement, runningPods, webApp, webPods } from './app.js';
import { describeWindow } from './traffic.js';

// The pod activities on containers that really run: each scenario sends requests through a
// Service's ClusterIP while the activity acts, and logs what they met (`running: …` lines).

const RUNNING = 'on running containers: ';

export const terminateRunning: Scenario<typeof terminatePodsActivity> = {
  name: `${RUNNING}killing 1 of 3 replicas, the replacement's container starts and serves; requests go on through the Service`,
  running: true,
  timeoutMs: 180_000,
  async run(t) {
    const { traffic } = await webApp(t, 3);
    const before = await webPods(t);
    const from = await traffic.mark();
    const result = await t.call({ ns: t.ns, label_selector: 'app=web', qty: 1, grace_period: 0, seed: 1 });
    assert.equal(result.pods.length, 1);
    const [victim] = result.pods;
    const after = await t.until(
      'a Ready replacement',
      async () => {
        const pods = await webPods(t);
        return pods.length === 3 && pods.every((p) => p.ready) && !pods.some((p) => p.name === victim)
          ? pods
          : undefined;
      },
      120_000,
    );
    const replacement = after.find((p) => !before.some((b) => b.name === p.name))!;
    // The replacement answers through the Service: its name comes back to the client.
    await traffic.untilSince(
      from,
      (w) => (w.servedBy[replacement.name] ?? 0) > 0,
      'the replacement serving through the Service',
    );
    const during = await traffic.since(from);
    const old = before.find((p) => p.name === victim)!;
    assert.notEqual(replacement.containerId, old.containerId);
    assert.match(replacement.containerId, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.ok(during.requests - during.failed > 0, 'requests were answered during the kill');
    t.log(
      `running: terminate_pods killed ${victim} (container ${old.containerId.slice(13, 25)}); replacement ${replacement.name} (container ${replacement.containerId.slice(13, 25)}) on ${replacement.node}; ${describeWindow(during)}`,
    );
  },
};

export const execRunning: Scenario<typeof execInPodsActivity> = {
  name: `${RUNNING}the command runs in the container: real stdout, stderr and exit code 3`,
  running: true,
  timeoutMs: 120_000,
  async run(t) {
    const { traffic } = await webApp(t, 1);
    const [pod] = await webPods(t);
    const from = await traffic.mark();
    const [result] = await t.call({
      ns: t.ns,
      label_selector: 'app=web',
      cmd: [
        'sh',
        '-c',
        'cat /www/index.html; echo "pid 1: $(cat /proc/1/comm)" ; echo to-stderr >&2; exit 3',
      ],
    });
    assert.ok(result);
    assert.equal(result.exit_code, 3);
    // The pod's own files and processes: its name in the page httpd serves, httpd as its PID 1.
    assert.equal(result.stdout, `${pod!.name}\npid 1: httpd\n`);
    assert.equal(result.stderr, 'to-stderr\n');
    assert.equal(result.timed_out, false);
    const after = (await webPods(t))[0]!;
    assert.equal(after.containerId, pod!.containerId, 'the same container, not restarted');
    t.log(
      `running: exec_in_pods in ${pod!.name} (container ${pod!.containerId.slice(13, 25)}): exit ${result.exit_code}, stdout ${JSON.stringify(result.stdout)}, stderr ${JSON.stringify(result.stderr)}; ${describeWindow(await traffic.since(from))}`,
    );
  },
};

export const logsRunning: Scenario<typeof readPodLogsActivity> = {
  name: `${RUNNING}reads what the container wrote; last keeps only the recent lines`,
  running: true,
  timeoutMs: 120_000,
  async run(t) {
    await webApp(t, 1);
    const [pod] = await webPods(t);
    // The container writes a tick a second: wait for a few, then read them all and the last 2 s.
    await t.until(
      '5 ticks written',
      async () => {
        const logs = await t.call({ ns: t.ns, name: 'web' });
        return (logs[pod!.name] ?? '').includes('tick 5\n');
      },
      60_000,
    );
    const all = (await t.call({ ns: t.ns, name: 'web' }))[pod!.name]!;
    const recent = (await t.call({ ns: t.ns, name: 'web', last: 2 }))[pod!.name]!;
    const ticks = (text: string) => text.split('\n').filter((l) => / tick \d+$/.test(l));
    assert.match(ticks(all)[0]!, /^\d{4}-\d\d-\d\dT[\d:.]+Z tick 1$/, 'each line prefixed by its timestamp');
    assert.ok(ticks(all).length >= 5);
    assert.ok(
      ticks(recent).length >= 1 && ticks(recent).length <= 4,
      `last 2 s: ${JSON.stringify(ticks(recent))}`,
    );
    assert.ok(!ticks(recent).some((l) => l.endsWith(' tick 1')), 'the first tick is older than 2 s');
    const cutoff = Date.now() - 2000 - 5000; // the kubelet's clock is this machine's: 5 s of slack for the call
    for (const line of ticks(recent)) assert.ok(Date.parse(line.split(' ')[0]!) >= cutoff, line);
    t.log(
      `running: read_pod_logs of ${pod!.name}: ${ticks(all).length} ticks in all, ${ticks(recent).length} in the last 2 s`,
    );
  },
};

/** Makes one web pod not Ready by its real readiness probe (its /ready goes away), or Ready again. */
async function setReady(t: CaseContext, pod: string, ready: boolean): Promise<void> {
  const cmd = ready ? 'touch /www/ready' : 'rm /www/ready';
  await execText(t.kc, { namespace: t.ns, pod, container: 'web' }, ['sh', '-c', cmd]);
  await t.until(
    `${pod} Ready=${ready}`,
    async () => (await webPods(t)).find((p) => p.name === pod)?.ready === ready,
    60_000,
  );
}

/** Two web pods; the scenario flips the first one's readiness and the probe must follow. */
function probeScenario<
  A extends typeof podsInConditionsActivity | typeof podsInPhaseActivity | typeof allPodsHealthyActivity,
>(what: string, check: (t: CaseContext<A>, notReady: string) => Promise<void>): Scenario<A> {
  return {
    name: `${RUNNING}${what}`,
    running: true,
    timeoutMs: 180_000,
    async run(t) {
      const { traffic } = await webApp(t, 2);
      const [flipped, other] = await webPods(t);
      const from = await traffic.mark();
      await setReady(t, flipped!.name, false);
      // The Service stops sending to the pod that is not Ready: the client meets only the other.
      await traffic.untilLast(5, (line) => line === other!.name, 'the Service sending to the Ready pod only');
      // Seen once on a loaded CI machine: the pod was Ready again before the probe ran. Only a new
      // container (its start creates /www/ready) can do that: said, and the pod made not Ready again.
      const now = (await webPods(t)).find((p) => p.name === flipped!.name);
      if (now?.ready) {
        t.log(
          `running: ${flipped!.name} was Ready again before the probe (container ${flipped!.containerId.slice(-12)} → ${now.containerId.slice(-12)}, restarts ${now.restarts}); made not Ready again`,
        );
        await setReady(t, flipped!.name, false);
      }
      await check(t, flipped!.name);
      await setReady(t, flipped!.name, true);
      t.log(
        `running: ${t.activity.name} with ${flipped!.name} made not Ready and Ready again by its probe; ${describeWindow(await traffic.since(from))}`,
      );
    },
  };
}

export const conditionsRunning = probeScenario<typeof podsInConditionsActivity>(
  'fails naming the pod its readiness probe made not Ready, holds once it is Ready again',
  async (t, notReady) => {
    const args = { ns: t.ns, label_selector: 'app=web', conditions: [{ type: 'Ready', status: 'True' }] };
    const message = await activityFailure(t.call(args));
    assert.match(message, new RegExp(notReady));
    await setReady(t, notReady, true);
    assert.equal(await t.call(args), true);
  },
);

export const phaseRunning = probeScenario<typeof podsInPhaseActivity>(
  'a pod that is not Ready is still Running: the phase probe holds',
  async (t) => {
    assert.equal(await t.call({ ns: t.ns, label_selector: 'app=web', phase: 'Running' }), true);
  },
);

export const healthyRunning = probeScenario<typeof allPodsHealthyActivity>(
  'every pod Running (one of them not Ready) is healthy; a pod whose container exits 1 is not',
  async (t) => {
    assert.equal(await t.call({ ns: t.ns }), true);
    const run = runningPods(t);
    await t.core.createNamespacedPod({
      namespace: t.ns,
      body: {
        metadata: { name: 'crash' },
        spec: {
          ...placement(run),
          restartPolicy: 'Never',
          containers: [
            {
              name: 'crash',
              image: run.image,
              imagePullPolicy: 'IfNotPresent',
              command: ['sh', '-c', 'exit 1'],
            },
          ],
        },
      },
    });
    await t.until(
      'crash Failed',
      async () =>
        (await t.core.readNamespacedPod({ name: 'crash', namespace: t.ns })).status?.phase === 'Failed',
      60_000,
    );
    assert.match(await activityFailure(t.call({ ns: t.ns })), /pod crash is Failed/);
    await t.core.deleteNamespacedPod({ name: 'crash', namespace: t.ns, gracePeriodSeconds: 0 });
  },
);
