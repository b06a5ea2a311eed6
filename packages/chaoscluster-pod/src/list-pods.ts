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
 * The same pods, their names and ages only: all that choosing and deleting pods needs, a
 * fraction of the bytes of whole pods (and of their metadata: 100,000 are held until chosen from).
 */
export function listPodMetadata(
  kube: KubeClient,
  ns: string,
  labelSelector?: string | null,
): Promise<PodMetadata[]> {
  return kube.list<PodMetadata>(Pods, {
    namespace: ns,
    labelSelector,
    metadataOnly: true,
    metadataFields: ['name', 'namespace', 'creationTimestamp'],
  });
}

export type PodMetadata = Pick<V1Pod, 'metadata'>;
