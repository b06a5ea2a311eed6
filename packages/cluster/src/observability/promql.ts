// A small typed client of Prometheus's instant query API (GET or POST /api/v1/query), enough
// for tests and demos to read what Prometheus holds.

export interface PromSample {
  /** The series' labels, `__name__` included when the expression keeps it. */
  metric: Record<string, string>;
  /** The sample's value; NaN and ±Infinity as Prometheus gives them. */
  value: number;
  /** Seconds since the epoch, with milliseconds. */
  time: number;
}

export interface PromRangeSeries {
  metric: Record<string, string>;
  values: Array<{ time: number; value: number }>;
}

export type PromQueryResult =
  | { resultType: 'vector'; result: PromSample[] }
  | { resultType: 'scalar'; result: PromSample }
  | { resultType: 'matrix'; result: PromRangeSeries[] }
  | { resultType: 'string'; result: { time: number; value: string } };

export interface PromQueryOptions {
  /** Evaluation time (default: now, as Prometheus sees it). */
  time?: Date;
  signal?: AbortSignal;
}

/** Prometheus answered the query with an error (bad PromQL, timeout, …). */
export class PromQueryError extends Error {
  constructor(
    readonly errorType: string,
    readonly reason: string,
    readonly status: number,
  ) {
    super(`Prometheus refused the query (${status} ${errorType}): ${reason}`);
    this.name = 'PromQueryError';
  }
}

type RawPoint = [number, string];
interface RawSeries {
  metric: Record<string, string>;
  value?: RawPoint;
  values?: RawPoint[];
}
type RawData =
  | { resultType: 'vector'; result: RawSeries[] }
  | { resultType: 'matrix'; result: RawSeries[] }
  | { resultType: 'scalar' | 'string'; result: RawPoint };

/** Prometheus writes sample values as strings: "1", "NaN", "+Inf", "-Inf". */
export function sampleValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/**
 * Evaluates `promql` at one instant on the Prometheus at `baseUrl` (http://host:port). Native
 * histogram samples, which carry no single value, come back with value NaN.
 */
export async function promQuery(
  baseUrl: string,
  promql: string,
  options: PromQueryOptions = {},
): Promise<PromQueryResult> {
  const form = new URLSearchParams({ query: promql });
  if (options.time) form.set('time', String(options.time.getTime() / 1000));
  const res = await fetch(new URL('/api/v1/query', baseUrl), {
    method: 'POST',
    body: form,
    signal: options.signal,
  });
  const body = (await res.json().catch(() => undefined)) as
    | { status: 'success'; data: RawData }
    | { status: 'error'; errorType: string; error: string }
    | undefined;
  if (!body) throw new PromQueryError('unreadable', `an answer that is not JSON`, res.status);
  if (body.status !== 'success') throw new PromQueryError(body.errorType, body.error, res.status);
  const data = body.data;
  const point = ([time, value]: RawPoint) => ({ time, value: sampleValue(value) });
  switch (data.resultType) {
    case 'vector':
      return {
        resultType: 'vector',
        result: data.result.map((s) => ({ metric: s.metric, ...point(s.value ?? [0, 'NaN']) })),
      };
    case 'matrix':
      return {
        resultType: 'matrix',
        result: data.result.map((s) => ({ metric: s.metric, values: (s.values ?? []).map(point) })),
      };
    case 'scalar':
      return { resultType: 'scalar', result: { metric: {}, ...point(data.result) } };
    case 'string':
      return { resultType: 'string', result: { time: data.result[0], value: data.result[1] } };
  }
}

/**
 * The samples of an instant query as a list: a vector's samples, a scalar as one sample
 * without labels; throws for a range or string result, which have no instant samples.
 */
export async function promSamples(
  baseUrl: string,
  promql: string,
  options?: PromQueryOptions,
): Promise<PromSample[]> {
  const answer = await promQuery(baseUrl, promql, options);
  if (answer.resultType === 'vector') return answer.result;
  if (answer.resultType === 'scalar') return [answer.result];
  throw new Error(`the query ${promql} gives a ${answer.resultType}, not instant samples`);
}
