import { createClusterClient, listAll } from '@chaoskit/core';
import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';

export function coreApi(secrets: Record<string, unknown>): { kc: KubeConfig; core: CoreV1Api } {
  const kc = createClusterClient(secrets).kubeConfig;
  return { kc, core: kc.makeApiClient(CoreV1Api) };
}

/** Every pod of the namespace matching the selector (filtered on the server, paginated). */
export function listPods(
  core: CoreV1Api,
  ns: string,
  labelSelector?: string | null,
  fieldSelector?: string,
): Promise<V1Pod[]> {
  return listAll(
    (page) =>
      core.listNamespacedPod({
        namespace: ns,
        ...(labelSelector ? { labelSelector } : {}),
        ...(fieldSelector ? { fieldSelector } : {}),
        ...page,
      }),
    { context: { verb: 'list', resource: 'pods', namespace: ns } },
  );
}

export const podName = (pod: V1Pod): string => pod.metadata?.name ?? '';
