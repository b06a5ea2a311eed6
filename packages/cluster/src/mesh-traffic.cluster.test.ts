import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMeshProbe } from './host/binaries.js';
import { isPortTaken } from './host/ports.js';
import { isAlive, ProcessGroup } from './host/processes.js';
import { until } from './host/until.js';
import { adsRequest, LISTENER_TYPE } from './istio/xds.js';
import { type MeshTraffic, meshTraffic, type RouteStats } from './mesh-traffic.js';
import { start } from './start.js';
import type { LocalCluster } from './types.js';

// This file runs its own local cluster with a real istiod: faults written into a
// VirtualService must show up in real gRPC traffic of a proxyless client.

const execFileAsync = promisify(execFile);
const REVIEWS = 'reviews.mesh.local';
const RATINGS = 'ratings.mesh.local';
const ROUTE_HEADER = 'x-chaoskit-route';

let cluster: LocalCluster;
let traffic: MeshTraffic;
let objects: CustomObjectsApi;
let clusterStartMs = 0;

beforeAll(async () => {
  const began = Date.now();
  cluster = await start({ provider: 'local', nodes: 1, mesh: 'istiod' });
  clusterStartMs = Date.now() - began;
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  objects = kc.makeApiClient(CustomObjectsApi);
  traffic = await meshTraffic({
    cluster,
    hosts: [
      { name: REVIEWS, subsets: ['v1', 'v2'] },
      { name: RATINGS, subsets: ['v1'] },
    ],
    routes: {
      a: { host: REVIEWS, headers: { [ROUTE_HEADER]: 'a' } },
      b: { host: REVIEWS, headers: { [ROUTE_HEADER]: 'b' } },
      ratings: { host: RATINGS },
    },
  });
  report('start', {
    clusterStartMs,
    istiodReadyMs: cluster.istiod?.readyMs,
    xds: cluster.istiod?.xdsAddress,
  });
}, 1_200_000);

afterAll(async () => {
  await traffic?.stop();
  await cluster?.stop();
});

function report(what: string, data: unknown): void {
  process.stderr.write(`mesh-traffic ${what}: ${JSON.stringify(data)}\n`);
}

type Fault = Record<string, unknown> | undefined;

/** The reviews VirtualService: header `a` → subset v1, header `b` → subset v2, each with an optional fault. */
async function writeReviewsRoutes(faults: { a?: Fault; b?: Fault } = {}): Promise<void> {
  const route = (name: 'a' | 'b', subset: string) => ({
    name,
    match: [{ headers: { [ROUTE_HEADER]: { exact: name } } }],
    ...(faults[name] ? { fault: faults[name] } : {}),
    route: [{ destination: { host: REVIEWS, subset } }],
  });
  const body = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'reviews' },
    spec: { hosts: [REVIEWS], http: [route('a', 'v1'), route('b', 'v2')] },
  };
  const ref = {
    group: 'networking.istio.io',
    version: 'v1',
    namespace: traffic.namespace,
    plural: 'virtualservices',
    name: 'reviews',
  };
  const current = await objects.getNamespacedCustomObject(ref).catch(() => undefined);
  if (!current) {
    await objects.createNamespacedCustomObject({ ...ref, body });
    return;
  }
  const resourceVersion = (current as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  await objects.replaceNamespacedCustomObject({
    ...ref,
    body: { ...body, metadata: { ...body.metadata, resourceVersion } },
  });
}

const served = (s: RouteStats) => Object.keys(s.servedBy).sort();
const summary = (s: RouteStats) => ({
  requests: s.requests,
  codes: s.codes,
  servedBy: s.servedBy,
  p50: s.latencyMs.p50,
  p99: s.latencyMs.p99,
  min: s.latencyMs.min,
});

describe('meshprobe', () => {
  it('fails on a taken port in the words that make meshTraffic start again on others', async () => {
    // A port checked free can go to another process before meshprobe binds it (issue 39).
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const dir = await mkdtemp(join(tmpdir(), 'chaoskit-meshprobe-port-'));
    const group = new ProcessGroup(dir);
    try {
      group.start('meshprobe-serve', await ensureMeshProbe(), [
        'serve',
        '--backend',
        `a/v1=127.0.0.1:${port}`,
      ]);
      const exited = await until('meshprobe to exit', async () => {
        try {
          group.assertRunning();
          return false;
        } catch (err) {
          return err as Error;
        }
      });
      expect(exited.message).toMatch(/a\/v1: listen tcp 127\.0\.0\.1:\d+: bind: address already in use/);
      expect(isPortTaken(exited)).toBe(true);
    } finally {
      await group.stop(1000);
      await new Promise((resolve) => taken.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('istiod on the local provider', () => {
  it('listens on 127.0.0.1 only and answers a real ADS request', async () => {
    const istiod = cluster.istiod!;
    expect(istiod.xdsAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const { stdout } = await execFileAsync('ss', ['-tlnpH']);
    const pid = cluster.pids.at(-1)!;
    const listening = stdout
      .split('\n')
      .filter((l) => l.includes(`pid=${pid},`))
      .map((l) => l.trim().split(/\s+/)[3]!);
    // gRPC xDS, HTTP debug, monitoring, webhook (and nothing on another interface).
    expect(listening.length).toBeGreaterThanOrEqual(4);
    for (const address of listening) expect(address).toMatch(/^127\.0\.0\.1:\d+$/);

    // The ServiceEntry was written a moment ago: istiod debounces changes (100 ms) before its
    // next push context includes it, so ask until the listener is there (bounded).
    const node = istiod.xdsBootstrap({ namespace: traffic.namespace }).node;
    const deadline = Date.now() + 10_000;
    let answer = await adsRequest(istiod.xdsAddress, node, LISTENER_TYPE, [`${REVIEWS}:7070`]);
    while (answer.resources === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await adsRequest(istiod.xdsAddress, node, LISTENER_TYPE, [`${REVIEWS}:7070`]);
    }
    expect(answer.typeUrl).toBe(LISTENER_TYPE);
    expect(answer.nonce).not.toBe('');
    expect(answer.resources).toBe(1);
    // A host that does not exist gets an answer without a listener.
    const none = await adsRequest(istiod.xdsAddress, node, LISTENER_TYPE, ['nowhere.mesh.local:7070']);
    expect(none.resources).toBe(0);
  });

  it("refuses, through istiod's own webhook, what Istio's CRD schema lets through", async () => {
    const vs = (abort: Record<string, unknown>) => ({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'bad-abort' },
      spec: {
        hosts: [RATINGS],
        http: [{ fault: { abort }, route: [{ destination: { host: RATINGS } }] }],
      },
    });
    const ref = {
      group: 'networking.istio.io',
      version: 'v1',
      namespace: traffic.namespace,
      plural: 'virtualservices',
    };
    const refusal = async (abort: Record<string, unknown>) =>
      objects.createNamespacedCustomObject({ ...ref, body: vs(abort) }).then(
        () => undefined,
        (err: { code?: number; body?: string }) => ({
          code: err.code,
          message: JSON.parse(err.body!).message,
        }),
      );

    const badStatus = await refusal({ httpStatus: 700, percentage: { value: 100 } });
    expect(badStatus?.code).toBe(400);
    expect(badStatus?.message).toMatch(/admission webhook "validation\.istio\.io" denied the request/);
    expect(badStatus?.message).toMatch(/HTTP status 700 is not in range 200-599/);

    const badGrpc = await refusal({ grpcStatus: 'NOT_A_CODE', percentage: { value: 100 } });
    expect(badGrpc?.message).toMatch(/gRPC status "NOT_A_CODE" is not supported/);

    const badShare = await refusal({ httpStatus: 503, percentage: { value: 150 } });
    expect(badShare?.message).toMatch(/validation\.istio\.io/);

    report('webhook', { badStatus, badGrpc, badShare });
  });

  // An abort with neither httpStatus nor grpcStatus passes the CRD schema and istiod's
  // webhook alike: istiod's abort check only warns ("abort configured, but error type not
  // set"), and the fault validator keeps the errors of that check, not its warnings. So the
  // apiserver stores it without a refusal or a warning.
  it('accepts an abort without a status, with no warning', async () => {
    const created = await objects.createNamespacedCustomObjectWithHttpInfo({
      group: 'networking.istio.io',
      version: 'v1',
      namespace: traffic.namespace,
      plural: 'virtualservices',
      dryRun: 'All',
      body: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'abort-without-status' },
        spec: {
          hosts: [RATINGS],
          http: [
            { fault: { abort: { percentage: { value: 100 } } }, route: [{ destination: { host: RATINGS } }] },
          ],
        },
      },
    });
    expect(created.httpStatusCode).toBe(201);
    expect(created.headers.warning).toBeUndefined();
  });
});

describe('faults from a VirtualService on real proxyless gRPC traffic', () => {
  it('without a VirtualService spreads over both subsets; with one, each route reaches its subset', async () => {
    const before = await traffic.send({ requests: 100, concurrency: 10 });
    for (const s of Object.values(before)) expect(s.failures).toBe(0);
    expect(served(before.a!)).toEqual([`${REVIEWS}/v1`, `${REVIEWS}/v2`]);

    await writeReviewsRoutes();
    // 50 RPCs all on v1 by chance, with both subsets behind the route, is unlikely enough.
    const waited = await traffic.waitFor('a', (s) => served(s).join() === `${REVIEWS}/v1`, { batch: 50 });
    const after = await traffic.send({ requests: 200, concurrency: 10 });
    report('baseline', {
      waited: waited.elapsedMs,
      before: summary(before.a!),
      after: mapValues(after, summary),
    });
    for (const s of Object.values(after)) {
      expect(s.failures).toBe(0);
      expect(s.codes).toEqual({ OK: 200 });
    }
    expect(after.a!.servedBy).toEqual({ [`${REVIEWS}/v1`]: 200 });
    expect(after.b!.servedBy).toEqual({ [`${REVIEWS}/v2`]: 200 });
    expect(after.ratings!.servedBy).toEqual({ [`${RATINGS}/v1`]: 200 });
  });

  it('aborts half of one route with 503 (UNAVAILABLE) and leaves the other route alone', async () => {
    await writeReviewsRoutes({ a: { abort: { httpStatus: 503, percentage: { value: 50 } } } });
    const waited = await traffic.waitFor('a', (s) => s.failures > 0);
    const n = 400;
    const stats = await traffic.send({ requests: n, concurrency: 20, routes: ['a', 'b'] });
    const a = stats.a!;
    const share = a.failures / n;
    // 99.999 % two-sided binomial interval around 0.5: z = 4.42 (one in a hundred CI runs failed on chance at 99.9 %).
    const half = 4.42 * Math.sqrt(0.25 / n);
    report('abort-50', {
      waited: waited.elapsedMs,
      share,
      interval: [0.5 - half, 0.5 + half],
      a: summary(a),
      b: summary(stats.b!),
    });
    expect(share).toBeGreaterThan(0.5 - half);
    expect(share).toBeLessThan(0.5 + half);
    expect(a.codes).toEqual({ OK: n - a.failures, Unavailable: a.failures });
    expect(Object.keys(a.messages)).toEqual(['RPC terminated due to fault injection']);
    // The fault acts in the client: aborted RPCs never reach a backend.
    expect(a.servedBy).toEqual({ [`${REVIEWS}/v1`]: n - a.failures });
    expect(stats.b!.codes).toEqual({ OK: n });
  });

  it('aborts every request of the route at 100 %', async () => {
    await writeReviewsRoutes({ a: { abort: { httpStatus: 503, percentage: { value: 100 } } } });
    await traffic.waitFor('a', (s) => s.failures === s.requests);
    const stats = await traffic.send({ requests: 200, concurrency: 20, routes: ['a', 'b'] });
    report('abort-100', mapValues(stats, summary));
    expect(stats.a!.codes).toEqual({ Unavailable: 200 });
    expect(stats.a!.servedBy).toEqual({});
    expect(stats.b!.codes).toEqual({ OK: 200 });
  });

  it('delays one route by 300 ms and no other', async () => {
    await writeReviewsRoutes({ a: { delay: { fixedDelay: '300ms', percentage: { value: 100 } } } });
    await traffic.waitFor('a', (s) => s.failures === 0 && s.latencyMs.p50 >= 300);
    const stats = await traffic.send({ requests: 100, concurrency: 20 });
    report('delay-300ms', mapValues(stats, summary));
    for (const s of Object.values(stats)) expect(s.codes).toEqual({ OK: 100 });
    expect(stats.a!.latencyMs.p50).toBeGreaterThanOrEqual(300);
    expect(stats.b!.latencyMs.p50).toBeLessThan(100);
    expect(stats.ratings!.latencyMs.p50).toBeLessThan(100);
  });

  it('does nothing with an abort that has no status', async () => {
    // Both routes change in one write; once route b's abort is seen, route a's status-less
    // abort has reached the client too.
    await writeReviewsRoutes({
      a: { abort: { percentage: { value: 100 } } },
      b: { abort: { httpStatus: 503, percentage: { value: 100 } } },
    });
    await traffic.waitFor('b', (s) => s.failures === s.requests);
    const stats = await traffic.send({ requests: 200, concurrency: 20, routes: ['a', 'b'] });
    report('abort-without-status', mapValues(stats, summary));
    expect(stats.a!.codes).toEqual({ OK: 200 });
    expect(stats.b!.codes).toEqual({ Unavailable: 200 });
  });

  // Istio's API reference says an abort or delay without percentage affects no request, and
  // istiod translates it so (0 %); chaoskit therefore always writes one (D85).
  it('does nothing with an abort or a delay that has no percentage', async () => {
    await writeReviewsRoutes({
      a: { abort: { httpStatus: 503 } },
      b: { abort: { httpStatus: 503, percentage: { value: 100 } } },
    });
    await traffic.waitFor('b', (s) => s.failures === s.requests);
    const aborts = await traffic.send({ requests: 200, concurrency: 20, routes: ['a', 'b'] });
    expect(aborts.a!.codes).toEqual({ OK: 200 });
    expect(aborts.b!.codes).toEqual({ Unavailable: 200 });

    await writeReviewsRoutes({
      a: { delay: { fixedDelay: '300ms' } },
      b: { delay: { fixedDelay: '300ms', percentage: { value: 100 } } },
    });
    await traffic.waitFor('b', (s) => s.latencyMs.min >= 300);
    const delays = await traffic.send({ requests: 100, concurrency: 20, routes: ['a', 'b'] });
    report('no-percentage', { aborts: mapValues(aborts, summary), delays: mapValues(delays, summary) });
    expect(delays.b!.latencyMs.min).toBeGreaterThanOrEqual(300);
    expect(delays.a!.latencyMs.p50).toBeLessThan(delays.b!.latencyMs.min);
    expect(delays.a!.codes).toEqual({ OK: 100 });
  });

  it('returns to no failures once the fault is removed', async () => {
    await writeReviewsRoutes({ a: { abort: { httpStatus: 503, percentage: { value: 100 } } } });
    await traffic.waitFor('a', (s) => s.failures === s.requests);
    await writeReviewsRoutes();
    const waited = await traffic.waitFor('a', (s) => s.failures === 0);
    const stats = await traffic.send({ requests: 200, concurrency: 20 });
    report('removed', { waited: waited.elapsedMs, ...mapValues(stats, summary) });
    for (const s of Object.values(stats)) expect(s.codes).toEqual({ OK: 200 });
    expect(stats.a!.servedBy).toEqual({ [`${REVIEWS}/v1`]: 200 });
  });
});

describe('clean-up', () => {
  it('leaves no process, namespace or file behind', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const probePids = traffic.pids;
    expect(probePids).toHaveLength(2);
    const namespace = traffic.namespace;
    await traffic.stop();
    for (const pid of probePids) expect(isAlive(pid), `meshprobe pid ${pid}`).toBe(false);
    const ns = await kc
      .makeApiClient(CoreV1Api)
      .readNamespace({ name: namespace })
      .catch((err: { code?: number }) => err.code);
    expect(ns === 404 || (typeof ns === 'object' && !!ns.metadata?.deletionTimestamp)).toBe(true);

    const clusterPids = cluster.pids;
    const { dir } = cluster;
    const istiodLog = cluster.istiod!.logFile;
    expect(existsSync(istiodLog)).toBe(true);
    await cluster.stop();
    for (const pid of clusterPids) expect(isAlive(pid), `cluster pid ${pid}`).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});

function mapValues<T, U>(o: Record<string, T>, f: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}
