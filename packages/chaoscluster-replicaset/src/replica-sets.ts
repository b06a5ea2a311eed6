// What the replica set activities share (kill_microservice of the deprecated module too): the
// replica sets a selector matches, and their deletion with background propagation.

import { type ActivityContext, deleteAll, type KubeClient, objectName, ReplicaSets } from '@chaoskit/core';
import type { V1ReplicaSet } from '@kubernetes/client-node';

/** The apps/v1 replica sets of the namespace matching the selectors (D14: not extensions/v1beta1). */
export function listReplicaSets(
  kube: KubeClient,
  ns: string,
  selectors: { labelSelector?: string | null; fieldSelector?: string } = {},
): Promise<V1ReplicaSet[]> {
  return kube.list<V1ReplicaSet>(ReplicaSets, { namespace: ns, ...selectors });
}

/**
 * Deletes the replica sets with background propagation (their pods follow); one already gone
 * counts as deleted. Returns the names deleted, in their order.
 */
export async function deleteReplicaSets(
  ctx: Pick<ActivityContext, 'kube' | 'log'>,
  ns: string,
  found: readonly V1ReplicaSet[],
): Promise<string[]> {
  const deleted = await deleteAll(ctx.kube, ReplicaSets, found, {
    query: { propagationPolicy: 'Background' },
    verb: 'delete replica set',
  });
  const names = deleted.map(objectName);
  if (names.length) ctx.log(`deleted ${names.length} replica set(s) of namespace ${ns}: ${names.join(', ')}`);
  return names;
}
