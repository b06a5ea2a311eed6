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

/**
 * The same pods, metadata only (names, labels, ages, owners): all that choosing and deleting
 * pods needs, a fraction of the bytes of whole pods.
 */
export function listPodMetadata(
  kube: KubeClient,
  ns: string,
  labelSelector?: string | null,
): Promise<PodMetadata[]> {
  return kube.list<PodMetadata>(Pods, { namespace: ns, labelSelector, metadataOnly: true });
}

export type PodMetadata = Pick<V1Pod, 'metadata'>;
