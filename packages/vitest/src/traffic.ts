// Error rates of real traffic: requests sent side by side, each counted as a failure when it
// throws, answers `false`, or answers an HTTP response that is not ok; or the numbers of a mesh
// traffic batch (@chaoskit/cluster's meshTraffic).

export interface TrafficSample {
  requests: number;
  failures: number;
  /** failures / requests (0 when nothing was sent). */
  errorRate: number;
  /** Count per outcome: `ok`, an HTTP status (`503`), or the error's message. */
  outcomes: Record<string, number>;
}

export interface TrafficOptions {
  /** How many requests (default 100). */
  requests?: number;
  /** In flight at once (default 10). */
  concurrency?: number;
}

function outcomeOf(answer: unknown): string {
  if (answer === false) return 'false';
  if (typeof answer === 'object' && answer !== null && 'ok' in answer && 'status' in answer)
    return (answer as { ok: boolean }).ok ? 'ok' : String((answer as { status: number }).status);
  return 'ok';
}

/** Sends `requests` requests with `send` (its argument: the request's number) and counts. */
export async function sendTraffic(
  send: (index: number) => Promise<unknown>,
  options: TrafficOptions = {},
): Promise<TrafficSample> {
  const requests = options.requests ?? 100;
  const outcomes: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      const index = next++;
      const outcome = await send(index).then(outcomeOf, (err: unknown) => (err as Error).message);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(requests, options.concurrency ?? 10) }, worker));
  return sampleOf(outcomes);
}

/** The sample of a mesh traffic batch (`RouteStats`: counts per gRPC status). */
export function errorRateOf(stats: { codes: Record<string, number> }): TrafficSample {
  return sampleOf(
    Object.fromEntries(Object.entries(stats.codes).map(([code, n]) => [code === 'OK' ? 'ok' : code, n])),
  );
}

function sampleOf(outcomes: Record<string, number>): TrafficSample {
  const requests = Object.values(outcomes).reduce((a, b) => a + b, 0);
  const failures = requests - (outcomes.ok ?? 0);
  return { requests, failures, errorRate: requests ? failures / requests : 0, outcomes };
}
