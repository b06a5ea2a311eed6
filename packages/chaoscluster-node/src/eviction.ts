// The evictions of drain_nodes: one eviction through the Eviction API (so disruption budgets
// are honoured), and all of them with the refusals of a budget retried until a deadline.

import {
  Aborted,
  ActivityFailed,
  type Batch,
  DEFAULT_CONCURRENCY,
  type EvictOp,
  isApiError,
  type KubeClient,
  mapLimit,
  Pods,
  removedAfterAbort,
  sleep,
} from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { blockingBudget, podKey } from './drain-plan.js';

/** Retries of an eviction a disruption budget refused: from 1 s, doubling, at most 5 s apart. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 5000;

export interface Refusal {
  pod: V1Pod;
  /** `namespace/name` of the budget that said no, when the refusal names one. */
  budget?: string;
  message: string;
}

interface StatusBody {
  details?: { causes?: Array<{ reason?: unknown; message?: unknown }> };
}

/** The server refuses every eviction in a namespace being deleted, with this cause (a StatusCause's type is sent as `reason`). */
const inTerminatingNamespace = (err: unknown): boolean =>
  isApiError(err, 'Forbidden') &&
  ((err.body as StatusBody | undefined)?.details?.causes ?? []).some(
    (c) => c.reason === 'NamespaceTerminating',
  );

type Outcome = { pod: V1Pod; evicted: true } | { pod: V1Pod; gone: true } | ({ refused: true } & Refusal);

const evictionOf = (pod: V1Pod): EvictOp => ({
  verb: 'evict',
  type: Pods,
  name: pod.metadata?.name ?? '',
  namespace: pod.metadata?.namespace ?? '',
});

async function evictOnce(kube: KubeClient, batch: Batch, op: EvictOp, pod: V1Pod): Promise<Outcome> {
  const namespace = op.namespace ?? '';
  try {
    // In plan mode the batch sends a dry run, which the server passes on to the deletion.
    await batch.send(op);
    return { pod, evicted: true };
  } catch (err) {
    if (isApiError(err, 'NotFound')) return { pod, gone: true };
    // A namespace being deleted takes its pods with it: no eviction can go through there, and
    // none is needed once the pod is being deleted. Until then, wait like for a budget.
    if (inTerminatingNamespace(err)) {
      // On its way out (gone, being deleted, or replaced), as core reads it after an abort.
      if ((await removedAfterAbort(kube, Pods, [pod])).get(pod)) return { pod, gone: true };
      return { refused: true, pod, message: `namespace '${namespace}' is being deleted` };
    }
    // 429: a disruption budget (or the server's rate limits) said no for now. 409: the budget
    // changed under concurrent evictions more often than the server retries; try again too.
    if (isApiError(err) && (err.status === 429 || err.status === 409)) {
      const budget = blockingBudget(err.body);
      // The budget's own words ("needs 3 healthy pods and has 3 currently") say the most.
      const causes = ((err.body as StatusBody | undefined)?.details?.causes ?? [])
        .map((cause) => cause.message)
        .filter((message): message is string => typeof message === 'string' && message !== '');
      return {
        refused: true,
        pod,
        ...(budget ? { budget: `${namespace}/${budget}` } : {}),
        message: causes.length > 0 ? causes.join('; ') : err.serverMessage,
      };
    }
    throw err;
  }
}

/**
 * Evicts every pod, DEFAULT_CONCURRENCY at once. Refusals (429: a disruption budget, or the server's
 * rate limits) are retried, all together, with a growing pause, until the deadline; then the
 * refusals left are returned. Any other error fails the drain at once.
 */
export async function evictAll(
  kube: KubeClient,
  pods: V1Pod[],
  deadline: number,
  log: (message: string) => void,
  signal?: AbortSignal,
): Promise<{ done: V1Pod[] } | { refusals: Refusal[] }> {
  // The rails, then the run's record of the pods to evict (one write per namespace), before the
  // first eviction.
  const ops = new Map(pods.map((pod) => [pod, evictionOf(pod)]));
  const batch = await kube.batch([...ops.values()]);
  const done: V1Pod[] = [];
  let pending = pods;
  let pause = FIRST_RETRY_MS;
  let reported = false;
  // What became of every pod when the signal aborted: evicted, not evicted, or under way (its
  // eviction was out; the look after the abort says whether it went through).
  const aborted = async (underWay: V1Pod[]): Promise<never> => {
    const settled = underWay.length > 0 ? await removedAfterAbort(kube, Pods, underWay) : new Map();
    for (const [pod, evicted] of settled) if (evicted) done.push(pod);
    const unknown = underWay.filter((pod) => !settled.has(pod));
    const names = (keep: (pod: V1Pod) => boolean) => pods.filter(keep).map(podKey);
    throw new Aborted(signal?.reason, {
      progress: {
        evicted: names((pod) => done.includes(pod)),
        interrupted: names((pod) => unknown.includes(pod)),
        'not evicted': names((pod) => !done.includes(pod) && !unknown.includes(pod)),
      },
    });
  };
  for (;;) {
    const failures: string[] = [];
    const underWay: V1Pod[] = [];
    const outcomes = await mapLimit(pending, DEFAULT_CONCURRENCY, (pod) =>
      signal?.aborted
        ? Promise.resolve(undefined)
        : evictOnce(kube, batch, ops.get(pod)!, pod).catch((err: unknown) => {
            if (signal?.aborted) underWay.push(pod);
            else failures.push(`${podKey(pod)}: ${(err as Error).message}`);
            return undefined;
          }),
    );
    const refusals: Refusal[] = [];
    for (const outcome of outcomes) {
      if (!outcome) continue;
      if ('refused' in outcome) refusals.push(outcome);
      else done.push(outcome.pod);
    }
    if (signal?.aborted) return aborted(underWay);
    if (failures.length > 0) {
      throw new ActivityFailed(
        `could not evict ${failures.length} pod(s): ${failures.join('; ')}. ${done.length} pod(s) were evicted; the nodes stay cordoned (uncordon_node undoes it).`,
      );
    }
    if (refusals.length === 0) return { done };
    const left = deadline - Date.now();
    if (left <= 0) return { refusals };
    if (!reported) {
      const budgets = [...new Set(refusals.map((r) => r.budget ?? 'the server'))];
      log(
        `eviction of ${refusals.length} pod(s) refused by ${budgets.join(', ')}; retrying until the timeout`,
      );
      reported = true;
    }
    await sleep(Math.min(pause, left), signal).catch(() => aborted([]));
    pause = Math.min(pause * 2, MAX_RETRY_MS);
    pending = refusals.map((r) => r.pod);
  }
}
