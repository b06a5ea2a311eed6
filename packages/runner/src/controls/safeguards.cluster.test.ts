// Chaos Toolkit's safeguards control, run by chaoskit (D127): a safeguard that breaks while the
// method's fault is in place interrupts the run, and its rollbacks undo the fault — with a
// PromQL safeguard on a real Prometheus (its scrape target flipped by the test), an HTTP one,
// and a chaoskit probe. The cluster object is what is asserted; the time from the breach to
// the fault undone is printed (median of 10 PromQL runs), not asserted.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type MetricsTarget,
  type RunningPrometheus,
  serveMetrics,
  startPrometheus,
} from '@chaoskit/cluster/observability';
import { deploy, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareExperiment } from '../prepare/prepare.js';
import { type Journal, runExperiment } from '../run/index.js';
import { activity, python } from '../testing/test-experiments.js';

const cluster = sharedCluster();
const apps = cluster.kc.makeApiClient(AppsV1Api);
const core = cluster.kc.makeApiClient(CoreV1Api);
const env = { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath };
let ns: Awaited<ReturnType<typeof testNamespace>>;
let target: MetricsTarget;
let prometheus: RunningPrometheus;
let health: Server;
let healthy = true;
let healthUrl: string;

beforeAll(async () => {
  ns = await testNamespace(cluster.kc, 'safeguards');
  await deploy(cluster.kc, ns.name, 'web', 2);
  target = await serveMetrics();
  target.set('chaoskit_test_errors', 0);
  prometheus = await startPrometheus({ scrape: [{ job: 'guard', targets: [target.address] }] });
  health = createServer((_req, res) => res.writeHead(healthy ? 200 : 503).end());
  await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
  healthUrl = `http://127.0.0.1:${(health.address() as AddressInfo).port}/health`;
}, 1_800_000);

afterAll(async () => {
  await prometheus?.stop();
  await target?.close();
  health?.close();
  await ns?.remove();
});

const replicas = async () =>
  (await apps.readNamespacedDeployment({ name: 'web', namespace: ns.name })).spec?.replicas;

/** Scales web to 0 and keeps it so for 5 minutes (interrupted, it plays its rollback: back to 2). */
function experiment(safeguard: Record<string, unknown>) {
  const scale = (n: number) =>
    python('chaoscluster.deployment.actions', 'scale_deployment', { name: 'web', replicas: n, ns: ns.name });
  return {
    title: 'web survives without its replicas',
    description: 'a safeguard stops the run when the system breaks',
    controls: [
      {
        name: 'safeguard',
        provider: {
          type: 'python',
          module: 'chaosaddons.controls.safeguards',
          arguments: { probes: [safeguard] },
        },
      },
    ],
    method: [{ type: 'action', name: 'scale-down', provider: scale(0), pauses: { after: 300 } }],
    rollbacks: [{ type: 'action', name: 'scale-up', provider: scale(2) }],
  };
}

const promql = {
  name: 'error-rate',
  type: 'probe',
  provider: python('chaoskit.prometheus', 'query', {
    // The last value scraped: on a loaded machine a scrape of the test's target can time out,
    // which marks the series stale, and a plain selector then gives an empty vector (null, out
    // of tolerance) — the guard would stop the run before the breach it is measured on.
    query: 'max(last_over_time(chaoskit_test_errors{job="guard"}[1m]))',
    url: '',
  }),
  tolerance: [0, 0.05],
  frequency: 1,
};

/** Runs the experiment; once its fault is in place, `breach()`; returns the journal and ms from the breach to 2 replicas. */
async function guarded(
  raw: object,
  breach: () => unknown | Promise<unknown>,
): Promise<{ journal: Journal; ms: number }> {
  const prepared = await prepareExperiment(JSON.parse(JSON.stringify(raw)), {}, env);
  const running = runExperiment(prepared, { env });
  await until('the fault in place', async () => (await replicas()) === 0, 60_000);
  const breached = performance.now();
  await breach();
  await until('the fault undone', async () => (await replicas()) === 2, {
    timeoutMs: 60_000,
    intervalMs: 20,
  });
  const ms = performance.now() - breached;
  return { journal: await running, ms };
}

describe('safeguards', () => {
  it('a PromQL safeguard out of tolerance interrupts the run and its rollbacks undo the fault (median of 10)', async () => {
    promql.provider.arguments.url = prometheus.url;
    const scraped = async (value: number) =>
      (await prometheus.samples('chaoskit_test_errors{job="guard"}'))[0]?.value === value;
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      target.set('chaoskit_test_errors', 0);
      await until('errors at 0 scraped', () => scraped(0));
      const { journal, ms } = await guarded(experiment(promql), () => target.set('chaoskit_test_errors', 1));
      times.push(ms);
      expect(journal.status).toBe('interrupted');
      expect(journal.rollbacks.map((r) => r.status)).toEqual(['succeeded']);
      expect(journal.interrupted_by).toMatchObject({ by: 'safeguard', name: 'error-rate' });
      expect(journal.interrupted_by?.run).toMatchObject({ output: 1, tolerance_met: false });
      expect(journal.interrupted_by?.reason).toContain('outside its tolerance [0,0.05]');
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = (sorted[4]! + sorted[5]!) / 2;
    process.stderr.write(
      `safeguards: breach to fault undone (PromQL, scrape 1 s, frequency 1 s), ms: ${times.map(Math.round).join(', ')}; median ${Math.round(median)}, max ${Math.round(sorted[9]!)}\n`,
    );
  }, 600_000);

  it('an HTTP safeguard (a status out of tolerance) interrupts the run', async () => {
    healthy = true;
    const http = {
      name: 'health',
      type: 'probe',
      provider: { type: 'http', url: healthUrl },
      tolerance: 200,
      frequency: 1,
    };
    const { journal, ms } = await guarded(experiment(http), () => {
      healthy = false;
    });
    process.stderr.write(`safeguards: breach to fault undone (HTTP, frequency 1 s): ${Math.round(ms)} ms\n`);
    expect(journal.status).toBe('interrupted');
    expect(journal.interrupted_by).toMatchObject({
      by: 'safeguard',
      name: 'health',
      run: { output: { status: 503 } },
    });
    expect(journal.rollbacks.map((r) => r.status)).toEqual(['succeeded']);
  }, 120_000);

  it('a chaoskit probe safeguard interrupts the run; one that breaks before the experiment stops it before any change', async () => {
    const pods = {
      ...activity('probe', 'no-broken-pod', 'chaoscluster.pod.probes', 'count_pods', {
        label_selector: 'guard=broken',
        ns: ns.name,
      }),
      tolerance: 0,
      frequency: 1,
    };
    const broken = {
      metadata: { name: 'broken', labels: { guard: 'broken' } },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    };
    const { journal, ms } = await guarded(experiment(pods), () =>
      core.createNamespacedPod({ namespace: ns.name, body: broken }),
    );
    process.stderr.write(
      `safeguards: breach to fault undone (chaoskit probe, frequency 1 s): ${Math.round(ms)} ms\n`,
    );
    expect(journal.status).toBe('interrupted');
    expect(journal.interrupted_by).toMatchObject({
      by: 'safeguard',
      name: 'no-broken-pod',
      run: { output: 1 },
    });

    // Without frequency or background it checks before the experiment: the broken pod is still there.
    const { frequency: _f, ...before } = pods;
    const prepared = await prepareExperiment(experiment(before), {}, env);
    const stopped = await runExperiment(prepared, { env });
    expect(stopped.status).toBe('interrupted');
    expect(stopped.run).toEqual([]);
    expect(stopped.interrupted_by?.name).toBe('no-broken-pod');
    expect(await replicas()).toBe(2);
  }, 120_000);

  it('refuses a safeguard that is not a probe, or without a tolerance, naming it', async () => {
    const bad = experiment({
      name: 'no-tolerance',
      type: 'probe',
      provider: { type: 'http', url: healthUrl },
      frequency: 0,
    });
    await expect(prepareExperiment(bad, {}, env)).rejects.toThrow(
      /safeguard probe 'no-tolerance': a safeguard probe must have a tolerance[\s\S]*frequency is the seconds between two checks/,
    );
    expect(await replicas()).toBe(2);
  });
});
