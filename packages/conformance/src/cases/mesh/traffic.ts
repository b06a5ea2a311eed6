// Real traffic for the mesh cases: gRPC backends of one host with two subsets, a proxyless
// gRPC client configured by istiod, and a VirtualService whose two http routes (picked by a
// request header) send to one subset each. The activities act on route `a` (the one to v1);
// route `b` (to v2) is never named, so it shows what a fault must not touch.

import assert from 'node:assert/strict';
import type { Fault, MeshVersion, VirtualService } from '@chaoskit/chaosmesh-fault';
import type { MeshTraffic, RouteStats } from '@chaoskit/cluster';
import type { AnyActivity } from '@chaoskit/core';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { trafficMeasurements } from '../../traffic-measurement.js';
import { createVirtualService, GROUP, objects, onEveryVersion, PLURAL } from './fixtures.js';

export const TRAFFIC_VS = 'traffic';
const ROUTE_HEADER = 'x-chaoskit-route';

/** The fault injected by an abort: the message grpc-go gives an RPC it aborted. */
export const ABORTED = 'RPC terminated due to fault injection';

/** The delay the cases inject, and the floor they hold the delayed route's latency to. */
export const DELAY = '300ms';
export const DELAY_MS = 300;

export const ABORT_ALL = { abort: { httpStatus: 503, percentage: { value: 100 } } };
export const DELAY_ALL = { delay: { fixedDelay: DELAY, percentage: { value: 100 } } };

type Stats = { a: RouteStats; b: RouteStats };

export interface TrafficFixture {
  traffic: MeshTraffic;
  /** The mesh host of the backends (unique to the scenario). */
  host: string;
  /** Each route's numbers before any fault: 200 RPCs, all OK, each route served by its subset. */
  baseline: Stats;
  /** The arguments that name the VirtualService and route `a` (the one to subset v1). */
  args(version: MeshVersion): Record<string, unknown>;
  /** Sends `requests` RPCs on both routes side by side. */
  send(requests: number, concurrency?: number): Promise<Stats>;
  /** Writes the faults of the routes as another client would (admin, v1); none: no fault key. */
  writeFaults(faults: { a?: Fault; b?: Fault }): Promise<void>;
  /**
   * Keeps measured numbers for the kit's reports, and prints them:
   * `mesh traffic <activity> <version> <what>: …`.
   */
  record(what: string, stats: Partial<Stats>): void;
}

/** What a test run prints of a route's numbers. */
export function summary(s: RouteStats) {
  return {
    requests: s.requests,
    codes: s.codes,
    failureShare: s.failures / s.requests,
    servedBy: s.servedBy,
    p50: s.latencyMs.p50,
    min: s.latencyMs.min,
    max: s.latencyMs.max,
  };
}

/**
 * Half of the interval: a share measured over `n` requests, each failing with probability `p`,
 * falls within p ± this with 99.999 % probability (normal approximation, z = 4.42). A CI run
 * checks a dozen shares or more: at 99.9 % (z = 3.29) one run in a hundred failed on chance
 * alone (0.5825 over 400 requests). At n = 400 the band is still ±0.11, far from 0, 1 or the
 * other half.
 */
export function binomialHalfWidth(n: number, p = 0.5): number {
  return 4.42 * Math.sqrt((p * (1 - p)) / n);
}

/** About `p` of the route's RPCs were aborted (503 → UNAVAILABLE); the others reached v1. */
export function assertAbortedShare(s: RouteStats, p: number, host: string): void {
  const share = s.failures / s.requests;
  const half = binomialHalfWidth(s.requests, p);
  assert.ok(
    share > p - half && share < p + half,
    `failure share ${share} over ${s.requests} RPCs is outside ${p} ± ${half.toFixed(4)} (99.9 %)`,
  );
  assert.deepEqual(s.codes, { OK: s.requests - s.failures, Unavailable: s.failures });
  assert.deepEqual(Object.keys(s.messages), [ABORTED]);
  assert.deepEqual(s.servedBy, { [`${host}/v1`]: s.requests - s.failures });
}

/** Every RPC of the route was aborted, in the client: no backend saw one. */
export function assertAllAborted(s: RouteStats): void {
  assert.deepEqual(s.codes, { Unavailable: s.requests });
  assert.deepEqual(s.servedBy, {});
}

/** Every RPC answered, by the route's own subset. */
export function assertAllServed(s: RouteStats, by: string): void {
  assert.deepEqual(s.codes, { OK: s.requests });
  assert.deepEqual(s.servedBy, { [by]: s.requests });
}

/** Every RPC of the route was held at least the injected delay. */
export function assertDelayed(s: RouteStats): void {
  assert.ok(s.latencyMs.min >= DELAY_MS, `fastest RPC ${s.latencyMs.min} ms, under the ${DELAY} delay`);
}

/**
 * Not delayed: the median is under the route's own baseline plus the delay the cases inject
 * (the baseline was measured in the same scenario, so no other time threshold is involved).
 */
export function assertNotDelayed(s: RouteStats, baseline: RouteStats): void {
  assert.ok(
    s.latencyMs.p50 < baseline.latencyMs.p50 + DELAY_MS,
    `p50 ${s.latencyMs.p50} ms is not under the baseline's ${baseline.latencyMs.p50} ms + ${DELAY}`,
  );
}

/** Starts the traffic, writes the VirtualService, and measures the baseline. */
export async function trafficFixture(t: CaseContext, version: MeshVersion): Promise<TrafficFixture> {
  // The host carries the scenario's namespace: a client sees VirtualServices of every namespace.
  const host = `reviews.${t.ns}.chaoskit.test`;
  const traffic = await t.meshTraffic({
    hosts: [{ name: host, subsets: ['v1', 'v2'] }],
    routes: {
      a: { host, headers: { [ROUTE_HEADER]: 'a' } },
      b: { host, headers: { [ROUTE_HEADER]: 'b' } },
    },
  });
  const route = (name: 'a' | 'b', subset: string) => ({
    name,
    match: [{ headers: { [ROUTE_HEADER]: { exact: name } } }],
    route: [{ destination: { host, subset } }],
  });
  await createVirtualService(
    t,
    { name: TRAFFIC_VS },
    { hosts: [host], http: [route('a', 'v1'), route('b', 'v2')] },
  );
  // Until the client has the routes: without them, a route spreads over both subsets.
  const only = (s: RouteStats, subset: string) => Object.keys(s.servedBy).join() === `${host}/${subset}`;
  await traffic.waitFor('a', (s) => only(s, 'v1'), { batch: 50 });
  await traffic.waitFor('b', (s) => only(s, 'v2'), { batch: 50 });

  const send = async (requests: number, concurrency = 20): Promise<Stats> => {
    const stats = await traffic.send({ requests, concurrency });
    return { a: stats.a!, b: stats.b! };
  };
  const record = (what: string, stats: Partial<Stats>) => {
    t.traffic.push(...trafficMeasurements(`${version} ${what}`, stats));
    t.log(
      `mesh traffic ${t.activity.name} ${version} ${what}: ${JSON.stringify(
        Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, summary(v)])),
      )}`,
    );
  };
  const baseline = await send(200);
  record('baseline', baseline);
  assertAllServed(baseline.a, `${host}/v1`);
  assertAllServed(baseline.b, `${host}/v2`);

  return {
    traffic,
    host,
    baseline,
    args: (v) => ({
      virtual_service_name: TRAFFIC_VS,
      ns: t.ns,
      version: v,
      routes: [{ destination: { host, subset: 'v1' } }],
    }),
    send,
    record,
    async writeFaults(faults) {
      const ref = { group: GROUP, version: 'v1', namespace: t.ns, plural: PLURAL, name: TRAFFIC_VS };
      const current = (await objects(t).getNamespacedCustomObject(ref)) as VirtualService;
      for (const [i, name] of (['a', 'b'] as const).entries()) {
        const entry = current.spec.http![i]!;
        const fault = faults[name];
        if (fault) entry.fault = fault as Record<string, unknown>;
        else delete entry.fault;
      }
      await objects(t).replaceNamespacedCustomObject({ ...ref, body: current });
    },
  };
}

/**
 * One scenario per API version that runs `run` on real traffic: skipped, with the reason,
 * where the kit cannot reach istiod.
 */
export function trafficScenarios<A extends AnyActivity>(
  name: string,
  run: (t: CaseContext<A>, version: MeshVersion, fx: TrafficFixture) => Promise<void>,
): Scenario<A>[] {
  return onEveryVersion<A>(`real traffic: ${name}`, async (t, version) =>
    run(t, version, await trafficFixture(t as unknown as CaseContext, version)),
  ).map((s) => ({ ...s, timeoutMs: 120_000 }));
}
