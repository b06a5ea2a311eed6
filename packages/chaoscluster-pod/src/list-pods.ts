import { type KubeClient, Pods } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';

/** Every pod of the namespace matching the selectors (filtered on the server, every page). */
export function listPods(
  kube: KubeClient,
  ns: string,
  labelSelector?: string | null,
  fieldSelector?: string,
): Promise<V1Pod[]> {
  return kube.list<V1Pod>(Pods, { namespace: ns, labelSelector, fieldSelector });
}
