// The few requests this package makes itself (where no modern activity exists to delegate to):
// services, replica sets and the pods of a namespace.

import { createClusterClient, listAll, z } from '@chaoskit/core';
import { AppsV1Api, CoreV1Api, type V1Pod, type V1ReplicaSet, type V1Service } from '@kubernetes/client-node';

export function coreApi(secrets: Record<string, unknown>): CoreV1Api {
  return createClusterClient(secrets).kubeConfig.makeApiClient(CoreV1Api);
}

export function appsApi(secrets: Record<string, unknown>): AppsV1Api {
  return createClusterClient(secrets).kubeConfig.makeApiClient(AppsV1Api);
}

// RFC 1035 label, as Kubernetes requires of a Service's name.
const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** `name` of the service activities: a Service's own name. */
export function serviceNameArg(doc: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      if (value.length > 63 || !DNS_1035.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'a service name: lower-case letters, digits and "-", at most 63, starting with a letter and ending alphanumeric',
        });
      }
    })
    .describe(doc);
}

export const nameOf = (o: { metadata?: { name?: string } }): string => o.metadata?.name ?? '';

export function listServices(
  core: CoreV1Api,
  ns: string,
  selectors: { labelSelector?: string | null; fieldSelector?: string },
): Promise<V1Service[]> {
  return listAll(
    (page) =>
      core.listNamespacedService({
        namespace: ns,
        ...(selectors.labelSelector ? { labelSelector: selectors.labelSelector } : {}),
        ...(selectors.fieldSelector ? { fieldSelector: selectors.fieldSelector } : {}),
        ...page,
      }),
    { context: { verb: 'list', resource: 'services', namespace: ns } },
  );
}

export function listPods(core: CoreV1Api, ns: string): Promise<V1Pod[]> {
  return listAll((page) => core.listNamespacedPod({ namespace: ns, ...page }), {
    context: { verb: 'list', resource: 'pods', namespace: ns },
  });
}

export function listReplicaSets(apps: AppsV1Api, ns: string, labelSelector: string): Promise<V1ReplicaSet[]> {
  return listAll(
    (page) =>
      apps.listNamespacedReplicaSet({ namespace: ns, ...(labelSelector ? { labelSelector } : {}), ...page }),
    { context: { verb: 'list', resource: 'replica sets', namespace: ns } },
  );
}
