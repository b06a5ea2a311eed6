// The pure part of drain_nodes: what to do with each pod found on a node, and what a refused
// eviction says about the disruption budget behind it. No I/O here, so every rule is unit-tested.

import type { V1Pod } from '@kubernetes/client-node';

export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

/** `namespace/name`: how the drain names a pod. */
export const podKey = (pod: V1Pod): string => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

export type PodVerdict =
  /** Left where it is. */
  | { action: 'skip'; reason: 'mirror' | 'daemonset' | 'local-storage' }
  /** Evicted through the Eviction API. */
  | { action: 'evict'; reason: 'terminal' | 'managed' | 'local-storage' }
  /** Already being deleted: not evicted again, but waited for. */
  | { action: 'wait'; reason: 'terminating' }
  /** No controller would re-create it: the drain is refused, as kubectl drain without --force. */
  | { action: 'refuse'; reason: 'unmanaged' };

export interface DrainOptions {
  deletePodsWithLocalStorage: boolean;
}

/**
 * As `kubectl drain --ignore-daemonsets [--delete-emptydir-data]` does (D30: unlike 0.25.1,
 * DaemonSet pods are never evicted and unmanaged pods refuse the drain), in this order:
 * 1. a mirror (static) pod is skipped;
 * 2. a DaemonSet pod is skipped (its controller would put it straight back);
 * 3. a pod already terminating is waited for, not evicted again;
 * 4. a pod with an emptyDir volume is skipped unless delete_pods_with_local_storage;
 * 5. a Succeeded or Failed pod is evicted;
 * 6. a pod without a controller refuses the drain;
 * 7. any other pod is evicted.
 * Absent `volumes` or `ownerReferences` count as empty lists (D15).
 */
export function classifyPod(pod: V1Pod, options: DrainOptions): PodVerdict {
  const annotations = pod.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, MIRROR_ANNOTATION)) return { action: 'skip', reason: 'mirror' };

  const owners = pod.metadata?.ownerReferences ?? [];
  const controller = owners.find((owner) => owner.controller === true);
  const daemonSet = controller
    ? controller.kind === 'DaemonSet'
    : owners.some((owner) => owner.kind === 'DaemonSet');
  if (daemonSet) return { action: 'skip', reason: 'daemonset' };

  if (pod.metadata?.deletionTimestamp) return { action: 'wait', reason: 'terminating' };

  const localStorage = (pod.spec?.volumes ?? []).some((volume) => volume.emptyDir != null);
  if (localStorage && !options.deletePodsWithLocalStorage) return { action: 'skip', reason: 'local-storage' };

  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return { action: 'evict', reason: 'terminal' };

  if (!controller) return { action: 'refuse', reason: 'unmanaged' };
  return { action: 'evict', reason: localStorage ? 'local-storage' : 'managed' };
}

export interface NodePlan<P = V1Pod> {
  node: string;
  evict: P[];
  wait: P[];
  skipped: Array<{ pod: P; reason: string }>;
  refused: P[];
}

/** Sorts the pods of one node by their verdicts. */
export function planNode(node: string, pods: readonly V1Pod[], options: DrainOptions): NodePlan {
  const plan: NodePlan = { node, evict: [], wait: [], skipped: [], refused: [] };
  for (const pod of pods) {
    const verdict = classifyPod(pod, options);
    if (verdict.action === 'evict') plan.evict.push(pod);
    else if (verdict.action === 'wait') plan.wait.push(pod);
    else if (verdict.action === 'refuse') plan.refused.push(pod);
    else plan.skipped.push({ pod, reason: verdict.reason });
  }
  return plan;
}

// The apiserver's words (pkg/registry/core/pod/storage/eviction.go):
//   cause: "The disruption budget <name> needs <n> healthy pods and has <m> currently"
//   message: "… The disruption budget <name> is still being processed by the server."
const BUDGET_IN_TEXT = /disruption budget (\S+?)(?: needs | is still being processed|[.,;]?\s*$)/;

/**
 * The name of the PodDisruptionBudget that refused an eviction (HTTP 429), read from the
 * Status the server sent back; undefined when the refusal names none (API rate limiting).
 */
export function blockingBudget(status: unknown): string | undefined {
  if (!status || typeof status !== 'object') return undefined;
  // A StatusCause's type is `reason` in JSON; any cause's message may name the budget.
  const s = status as { message?: unknown; details?: { causes?: Array<{ message?: unknown }> } };
  const texts = [...(s.details?.causes ?? []).map((cause) => cause.message), s.message];
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    const match = BUDGET_IN_TEXT.exec(text);
    if (match?.[1]) return match[1];
  }
  return undefined;
}
