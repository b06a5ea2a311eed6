// What real traffic through the mesh did in a scenario, as the kit's reports show it: per route
// and moment, how many requests, what share failed, and the median latency.
import type { RouteStats } from '@chaoskit/cluster';

export interface TrafficMeasurement {
  /** The moment of the scenario: "baseline", "abort 503 at 50 %", … */
  what: string;
  route: string;
  requests: number;
  /** Requests that did not end OK, over all requests (0 to 1). */
  failedShare: number;
  /** Median client-side latency, in milliseconds. */
  p50Ms: number;
}

export function trafficMeasurements(
  what: string,
  stats: { [route: string]: RouteStats | undefined },
): TrafficMeasurement[] {
  return Object.entries(stats).flatMap(([route, s]) =>
    s
      ? [
          {
            what,
            route,
            requests: s.requests,
            failedShare: s.requests ? s.failures / s.requests : 0,
            p50Ms: s.latencyMs.p50,
          },
        ]
      : [],
  );
}

/** One measurement as a line: `baseline, route a: 200 requests, 0.0 % failed, p50 1.4 ms`. */
export function trafficLine(m: TrafficMeasurement): string {
  return `${m.what}, route ${m.route}: ${m.requests} requests, ${(m.failedShare * 100).toFixed(1)} % failed, p50 ${m.p50Ms.toFixed(1)} ms`;
}
