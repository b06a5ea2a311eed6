// The end of drain_nodes: a watch of one node's pods until the evicted ones are gone.

import { ActivityFailed, type KubeClient, Pods, watchUntil } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { type NodePlan, podKey } from './drain-plan.js';

/**
 * Watches the pods of one node until none of the evicted or terminating ones is left (a pod
 * re-created under the same name has another uid and does not count). Returns what is left at
 * the deadline, as `namespace/name (node …)`.
 */
export async function waitGone(
  kube: KubeClient,
  plan: NodePlan,
  evicted: ReadonlySet<V1Pod>,
  deadline: number,
  ctx: { log: (message: string) => void; signal?: AbortSignal },
): Promise<string[]> {
  const targets = [...plan.evict.filter((pod) => evicted.has(pod)), ...plan.wait];
  if (targets.length === 0) return [];
  const uids = new Set(targets.map((pod) => pod.metadata?.uid));
  const remaining = (items: V1Pod[]) =>
    items.filter((pod) => uids.has(pod.metadata?.uid)).map((pod) => `${podKey(pod)} (node ${plan.node})`);
  const select = { fieldSelector: `spec.nodeName=${plan.node}` };
  const timeoutMs = deadline - Date.now();
  if (timeoutMs <= 0) return remaining(await kube.list<V1Pod>(Pods, select));
  let last: string[] = targets.map((pod) => `${podKey(pod)} (node ${plan.node})`);
  const timeUp = new ActivityFailed('time is up');
  try {
    await watchUntil<V1Pod, true>({
      kube,
      type: Pods,
      select,
      until: (items) => {
        last = remaining(items);
        return last.length === 0 ? true : undefined;
      },
      timeoutMs,
      onTimeout: () => timeUp,
      progress: (ms) =>
        ctx.log(`node ${plan.node}: ${last.length} pod(s) still going after ${Math.round(ms / 1000)} s`),
      progressEveryMs: 10_000,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return [];
  } catch (err) {
    if (err === timeUp) return last;
    throw err;
  }
}
