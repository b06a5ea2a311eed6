// What the deployment activities share: deployments listed on the server, and their replica
// counts in words.

import { Deployments, type KubeClient } from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';

export interface ReplicaCounts {
  /** spec.replicas (the API server defaults it to 1). */
  desired: number;
  /** status.readyReplicas; absent counts as 0 (D17). */
  ready: number;
  /** status.availableReplicas; absent counts as 0. */
  available: number;
}

export function replicaCounts(d: V1Deployment): ReplicaCounts {
  return {
    desired: d.spec?.replicas ?? 1,
    ready: d.status?.readyReplicas ?? 0,
    available: d.status?.availableReplicas ?? 0,
  };
}

/** The field selector of one deployment by its object name. */
export const byName = (name: string): string => `metadata.name=${name}`;

/** The deployments of the namespace matching the selectors (filtered on the server, paginated). */
export function listDeployments(
  kube: KubeClient,
  ns: string,
  selectors: { labelSelector?: string | null; fieldSelector?: string } = {},
): Promise<V1Deployment[]> {
  return kube.list<V1Deployment>(Deployments, { namespace: ns, ...selectors });
}
