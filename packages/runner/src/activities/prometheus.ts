// `chaoskit.prometheus.query` (D129): the instant value of a PromQL query, for a safeguard's or
// a hypothesis's tolerance. Built into the runner: it reaches a Prometheus HTTP API, not a
// cluster. Chaos Toolkit's chaosprometheus.probes.query returns the API's whole answer; this
// returns the one value a tolerance compares (a range such as [0, 0.05] on an error rate).

import { ActivityFailed, defineActivity, z } from '@chaoskit/core';

export const PROMETHEUS_MODULE = 'chaoskit.prometheus';

interface Answer {
  status?: string;
  error?: string;
  data?: { resultType?: string; result?: unknown };
}

/** The one value of an instant query's answer: a scalar, or a vector of at most one sample. */
export function instantValue(answer: Answer, query: string): number | null {
  const { resultType, result } = answer.data ?? {};
  const number = (pair: unknown) => Number((pair as [number, string])[1]);
  if (resultType === 'scalar') return number(result);
  if (resultType !== 'vector' || !Array.isArray(result))
    throw new ActivityFailed(
      `query ${query} returns a ${resultType ?? 'nothing'}, not an instant vector or a scalar`,
    );
  if (result.length === 0) return null;
  if (result.length > 1)
    throw new ActivityFailed(
      `query ${query} returns ${result.length} series, and a tolerance compares one value: aggregate them (sum, max, avg …)`,
    );
  return number((result[0] as { value: unknown }).value);
}

export const prometheusQueryActivity = defineActivity({
  name: 'query',
  kind: 'probe',
  module: PROMETHEUS_MODULE,
  doc: "Asks a Prometheus HTTP API (url; default the configuration's prometheus_base_url, as Chaos Toolkit's chaosprometheus, else http://localhost:9090) for the instant value of a PromQL query: a number for a scalar or a vector of one sample, null for an empty vector. A vector of more samples fails: aggregate it.",
  returns: 'a number, or null when the vector is empty',
  args: {
    query: z.string().min(1).describe('The PromQL query.'),
    url: z
      .url({ protocol: /^https?$/ })
      .nullable()
      .default(null)
      .describe("The Prometheus base URL; null: the configuration's prometheus_base_url."),
    timeout: z.number().positive().max(300).default(10).describe('Seconds to wait for the answer.'),
  },
  rbac: [],
  async run(args, ctx) {
    const base = args.url ?? String(ctx.configuration.prometheus_base_url ?? 'http://localhost:9090');
    const url = new URL('api/v1/query', base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('query', args.query);
    const timeout = AbortSignal.timeout(args.timeout * 1000);
    let answer: Answer;
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout,
      });
      answer = (await res.json()) as Answer;
      if (!res.ok || answer.status !== 'success')
        throw new ActivityFailed(
          `Prometheus refused query ${args.query}: ${answer.error ?? `HTTP ${res.status}`}`,
        );
    } catch (err) {
      if (err instanceof ActivityFailed) throw err;
      throw new ActivityFailed(
        `Prometheus could not be asked query ${args.query}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    const value = instantValue(answer, args.query);
    ctx.log(`query ${args.query}: ${value}`);
    return value;
  },
});
