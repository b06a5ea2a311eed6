// Traces and metrics of `chaoskit run` (D130–D133, D164), with real back ends: a real Jaeger
// receives the spans (over OTLP http/protobuf, http/json and gRPC) and the test reads them back
// through its API as a tree that must be the journal's — the run, its phases, one span per
// activity — with one span per API request the apiserver's audit log shows for the run's
// identity; the fault applied and reverted are events of the activities that made them, and the
// traceparent an HTTP probe sent names the probe's span. A real Prometheus receives the metrics
// a run pushes over OTLP, and scrapes the /metrics a run serves (--metrics-port) while its fault
// is in place: the same names both ways, durations in `_seconds` histograms whose bucket edges
// are seconds.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '@chaoskit/cluster';
import {
  type RunningJaeger,
  type RunningPrometheus,
  type SpanNode,
  spanTree,
  startJaeger,
  startPrometheus,
  type TraceSpan,
  treeShape,
} from '@chaoskit/cluster/observability';
import {
  deploy,
  fileNamespace,
  freePort,
  type Grant,
  serviceAccountEnv,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import type { Journal } from '../run/index.js';
import { runCli } from '../testing/test-cli.js';
import { countWebPods, python } from '../testing/test-experiments.js';
import { operatorsKey, printedRoles } from '../testing/test-identities.js';
import { startRun } from '../testing/test-runs.js';

const cluster = sharedCluster();
const ns = fileNamespace(cluster.kc, 'telemetry');
let dir: string;
let jaeger: RunningJaeger;
let prometheus: RunningPrometheus;
let web: Server;
let webUrl: string;
let healthy = true;
/** The traceparent headers the web server received, in order. */
const traceparents: string[] = [];
let metricsPort: number;
let runs = 0;

const scale = (n: number) =>
  python('chaoscluster.deployment.actions', 'scale_deployment', { name: 'web', replicas: n, ns: ns.name });

/** Counts web's pods, asks web over HTTP, scales it to 1 and back to 3 (the rollback). */
const experiment = () => ({
  title: 'web holds with one replica',
  description: 'traced',
  'steady-state-hypothesis': {
    title: 'web runs',
    probes: [
      countWebPods([0, 10], ns.name),
      { type: 'probe', name: 'web-answers', provider: { type: 'http', url: webUrl }, tolerance: 200 },
    ],
  },
  method: [{ type: 'action', name: 'scale-down', provider: scale(1) }],
  rollbacks: [{ type: 'action', name: 'scale-back', provider: scale(3) }],
});

/** The same fault, held for 5 minutes under a safeguard that asks web over HTTP every second. */
const guarded = () => ({
  title: 'web holds, guarded',
  description: 'a safeguard breaks',
  controls: [
    {
      name: 'safeguard',
      provider: {
        type: 'python',
        module: 'chaosaddons.controls.safeguards',
        arguments: {
          probes: [
            {
              name: 'web-up',
              type: 'probe',
              provider: { type: 'http', url: webUrl },
              tolerance: 200,
              frequency: 1,
            },
          ],
        },
      },
    },
  ],
  method: [{ type: 'action', name: 'scale-down', provider: scale(1), pauses: { after: 300 } }],
  rollbacks: [{ type: 'action', name: 'scale-back', provider: scale(3) }],
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-telemetry-'));
  web = createServer((req, res) => {
    if (req.headers.traceparent) traceparents.push(String(req.headers.traceparent));
    res.writeHead(healthy ? 200 : 503).end();
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
  metricsPort = await freePort();
  [jaeger, prometheus] = await Promise.all([
    startJaeger(),
    startPrometheus({ scrape: [{ job: 'served', targets: [`127.0.0.1:${metricsPort}`] }] }),
  ]);
  await deploy(cluster.kc, ns.name, 'web', 3);
  const file = join(dir, 'rbac.yaml');
  await writeFile(file, dump(experiment()));
  const printed = await runCli(['rbac', file, '--name', 'runner'], { cwd: dir });
  expect(printed.code, printed.stderr).toBe(0);
  await operatorsKey(cluster.kc, ns.name);
  grants = await printedRoles(cluster.kc, printed.stdout, ns.name);
}, 1_800_000);

afterAll(async () => {
  await Promise.all([jaeger?.stop(), prometheus?.stop()]);
  web?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What `chaoskit rbac` printed for the experiment, created. */
let grants: Grant[];
/** The run's identity (the experiment's rights), and a service name of its own for each run's traces. */
let identity: Awaited<ReturnType<typeof serviceAccountEnv>>;
async function runner() {
  identity ??= await serviceAccountEnv(cluster, ns.name, 'runner', grants);
  const service = `chaoskit-${ns.name}-${++runs}`;
  return { ...identity, service, env: { ...identity.env, OTEL_SERVICE_NAME: service } };
}

const METHODS: Record<string, string> = {
  get: 'GET',
  list: 'GET',
  watch: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

/** The spans of the service's one trace, read back from Jaeger. */
async function traceOf(service: string): Promise<TraceSpan[]> {
  const traces = await jaeger.findTraces(service);
  expect(traces).toHaveLength(1);
  return traces[0]!;
}

const isRequest = (s: TraceSpan) => s.kind === 'client';

/** The tree without the API requests: the run as its journal tells it. */
const withoutRequests = (nodes: SpanNode[]): SpanNode[] =>
  nodes.filter((n) => !isRequest(n)).map((n) => ({ ...n, children: withoutRequests(n.children) }));

const find = (spans: TraceSpan[], name: string) => spans.find((s) => s.name === name)!;

/** Each request span sent (resend_count + 1) times, as `METHOD /path`, sorted. */
const sentRequests = (spans: TraceSpan[]) =>
  spans
    .filter(isRequest)
    .flatMap((s) =>
      Array<string>(Number(s.attributes['http.request.resend_count'] ?? 0) + 1).fill(
        `${s.attributes['http.request.method']} ${s.attributes['url.path']}`,
      ),
    )
    .sort();

describe.each(['http/protobuf', 'http/json', 'grpc'] as const)(
  'chaoskit run, traced over OTLP %s',
  (protocol) => {
    it("sends a trace that is the journal's tree, with a span per API request the audit log shows", async () => {
      const who = await runner();
      const since = new Date();
      const journalPath = join(dir, `traced-${runs}.json`);
      const file = join(dir, `traced-${runs}.yaml`);
      await writeFile(file, dump(experiment()));
      traceparents.length = 0;
      // #region traces
      // The standard OTEL_* variables turn traces on: here, those jaeger.otelEnv() gives —
      // OTEL_TRACES_EXPORTER=otlp, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, _TRACES_ENDPOINT.
      const env = { ...who.env, ...jaeger.otelEnv(protocol) };
      const run = await runCli(['run', file, '--journal-path', journalPath, '--ledger-namespace', ns.name], {
        env,
      });
      // #endregion
      expect(run.code, run.stderr).toBe(EXIT.ok);
      expect(run.stderr).not.toContain('telemetry:');
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
      const spans = await traceOf(who.service);

      // The run as its journal tells it: the phases, one span per activity, in order.
      const names = (runs: Journal['run']) => runs.map((r) => `${r.activity.type} ${r.activity.name}`);
      expect(treeShape(withoutRequests(spanTree(spans)))).toEqual([
        {
          'chaoskit run': [
            {
              run: [
                { 'steady-state before': names(journal.steady_states.before!.probes) },
                { method: names(journal.run) },
                { 'steady-state after': names(journal.steady_states.after!.probes) },
                { rollbacks: names(journal.rollbacks) },
              ],
            },
          ],
        },
      ]);
      const runSpan = find(spans, 'run');
      expect(runSpan.attributes).toMatchObject({
        'chaoskit.experiment': journal.experiment.title,
        'chaoskit.run_id': journal.run_id,
        'chaoskit.outcome': 'completed',
        'chaoskit.dry_run': false,
      });
      const down = find(spans, 'action scale-down');
      expect(down.attributes).toMatchObject({
        'chaoskit.activity': 'scale-down',
        'chaoskit.provider': 'chaoscluster.deployment.actions.scale_deployment',
        'chaoskit.targets': [ns.name],
        'chaoskit.dry_run': false,
        'chaoskit.outcome': journal.run[0]!.status,
      });
      const change = {
        'chaoskit.change.verb': 'patch',
        'chaoskit.change.resource': 'deployments',
        'chaoskit.change.name': 'web',
        'chaoskit.change.namespace': ns.name,
      };
      expect(down.events.map((e) => [e.name, e.attributes])).toEqual([['fault applied', change]]);
      const back = find(spans, 'action scale-back');
      expect(back.events.map((e) => [e.name, e.attributes])).toEqual([['fault reverted', change]]);
      // The action's PATCH is its own child.
      const patches = spans.filter((s) => s.parentSpanId === down.spanId && isRequest(s));
      expect(patches.map((s) => [s.name, s.attributes['http.response.status_code']])).toContainEqual([
        'PATCH deployments',
        200,
      ]);

      // Every request the apiserver saw from the run's identity is a span, and only those.
      const audited = async () =>
        (await readAuditLog(cluster.auditLogPath, { user: who.identity, since }))
          .map((e) => `${METHODS[e.verb] ?? e.verb} ${e.requestURI.split('?')[0]}`)
          .sort();
      const sent = sentRequests(spans);
      // A watch is logged when it ends, a moment after the process.
      await until('every request in the audit log', async () => (await audited()).length >= sent.length);
      expect(await audited()).toEqual(sent);

      // The HTTP probe carried the trace's context, naming its own span.
      const probes = spanTree(spans.filter((s) => s.name === 'probe web-answers'));
      expect(traceparents).toEqual(probes.map((p) => `00-${p.traceId}-${p.spanId}-01`));
      expect(probes).toHaveLength(2);
      // No credentials and no server address in the trace (D90).
      const text = JSON.stringify(spans);
      expect(text).not.toContain(who.token);
      expect(text).not.toContain(new URL(cluster.credentials.server).host);
    });
  },
);

// The histograms' bucket edges, in seconds (run/metrics.ts, core's telemetry.ts).
const REQUEST_EDGES = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.075,
  0.1,
  0.25,
  0.5,
  0.75,
  1,
  2.5,
  5,
  7.5,
  10,
  30,
  60,
  300,
  Infinity,
];
const ACTIVITY_EDGES = [
  0.01,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
  120,
  300,
  600,
  1800,
  3600,
  Infinity,
];
const RUN_EDGES = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14_400, Infinity];

/** The `le` edges of a histogram's buckets as Prometheus holds them, as numbers (Prometheus 3 writes `1.0`). */
async function edges(histogram: string, job: string): Promise<number[]> {
  const buckets = await prometheus.samples(`${histogram}_bucket{job="${job}"}`);
  const le = new Set(buckets.map((b) => (b.metric.le === '+Inf' ? Infinity : Number(b.metric.le))));
  return [...le].sort((a, b) => a - b);
}

describe('metrics', () => {
  it('a run pushes them to Prometheus over OTLP and serves them on /metrics; a safeguard breach is a span event', async () => {
    const who = await runner();
    healthy = true;
    // #region metrics
    // Pushed over OTLP when the run ends (and every OTEL_METRIC_EXPORT_INTERVAL ms), and served
    // on /metrics while it runs: Prometheus takes either.
    const env = {
      ...who.env,
      ...jaeger.otelEnv('http/protobuf'),
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: prometheus.otlpMetricsUrl,
    };
    const run = await startRun(dir, 'guarded', guarded(), {
      env,
      args: ['--ledger-namespace', ns.name, '--metrics-port', String(metricsPort)],
    });
    // #endregion
    await run.methodDone(1);
    // While the fault is in place, Prometheus scrapes it from the run.
    const served = 'chaoskit_faults_in_place{job="served"}';
    await until('the scraped fault in place', async () => (await prometheus.samples(served))[0]?.value === 1);
    // Durations as Prometheus scrapes them: `_seconds`, bucket edges in seconds.
    await until(
      'a scraped API request duration',
      async () =>
        (await prometheus.samples(`chaoskit_api_request_duration_seconds_count{job="served"}`)).length > 0,
    );
    expect(await edges('chaoskit_api_request_duration_seconds', 'served')).toEqual(REQUEST_EDGES);
    expect(await edges('chaoskit_activity_duration_seconds', 'served')).toEqual(ACTIVITY_EDGES);
    expect(await prometheus.samples('{__name__=~"chaoskit_.*duration_(bucket|count|sum)"}')).toEqual([]);
    healthy = false;
    const { code, stderr } = await run.exited;
    expect(code, stderr).toBe(EXIT.failed);
    const journal = JSON.parse(await readFile(run.journalPath, 'utf8')) as Journal;
    expect(journal.interrupted_by).toMatchObject({ by: 'safeguard', name: 'web-up' });

    const spans = await traceOf(who.service);
    const breach = find(spans, 'run').events.find((e) => e.name === 'guard breached');
    expect(breach?.attributes).toMatchObject({
      'chaoskit.guard': 'safeguard',
      'chaoskit.guard.name': 'web-up',
    });

    const job = `job="${who.service}"`;
    const value = async (promql: string) => (await prometheus.samples(promql))[0]?.value;
    await until('the pushed metrics', async () => (await value(`chaoskit_runs_total{${job}}`)) !== undefined);
    expect(await value(`chaoskit_runs_total{${job},outcome="interrupted",deviated="false"}`)).toBe(1);
    expect(await value(`chaoskit_guard_breaches_total{${job},by="safeguard"}`)).toBe(1);
    expect(
      await value(`chaoskit_activities_total{${job},type="action",phase="method",outcome="succeeded"}`),
    ).toBe(1);
    expect(
      await value(`chaoskit_activities_total{${job},type="action",phase="rollbacks",outcome="succeeded"}`),
    ).toBe(1);
    expect(await value(`chaoskit_faults_total{${job},event="applied"}`)).toBe(1);
    expect(await value(`chaoskit_faults_total{${job},event="reverted"}`)).toBe(1);
    expect(await value(`chaoskit_faults_in_place{${job}}`)).toBe(0);
    // One count per API request span of the trace, by method and status.
    expect(await value(`sum(chaoskit_api_requests_total{${job}})`)).toBe(spans.filter(isRequest).length);
    const patched = spans.filter((s) => isRequest(s) && s.name.startsWith('PATCH '));
    expect(await value(`sum(chaoskit_api_requests_total{${job},method="PATCH",code="200"})`)).toBe(
      patched.filter((s) => s.attributes['http.response.status_code'] === 200).length,
    );
    expect(await value(`chaoskit_run_duration_seconds_count{${job},outcome="interrupted"}`)).toBe(1);
    // Pushed, the same names and the same edges.
    expect(await edges('chaoskit_run_duration_seconds', who.service)).toEqual(RUN_EDGES);
    expect(await edges('chaoskit_activity_duration_seconds', who.service)).toEqual(ACTIVITY_EDGES);
    expect(await edges('chaoskit_api_request_duration_seconds', who.service)).toEqual(REQUEST_EDGES);
  });
});
