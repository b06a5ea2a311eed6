import { createClusterClient, listAll, z } from '@chaoskit/core';
import { AppsV1Api, type KubeConfig, type V1Deployment } from '@kubernetes/client-node';

export const ACTIONS = 'chaoscluster.deployment.actions';
export const PROBES = 'chaoscluster.deployment.probes';

export function appsApi(secrets: Record<string, unknown>): { kc: KubeConfig; apps: AppsV1Api } {
  const kc = createClusterClient(secrets).kubeConfig;
  return { kc, apps: kc.makeApiClient(AppsV1Api) };
}

// RFC 1123 subdomain, as Kubernetes requires of a Deployment's name.
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `name` of the activities that address one deployment by its object name. */
export function deploymentNameArg(doc: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      if (value.length > 253 || !DNS_SUBDOMAIN.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'a deployment name: lower-case letters, digits, "-" and ".", at most 253, starting and ending alphanumeric',
        });
      }
    })
    .describe(doc);
}

/** `timeout` of the waits: seconds, the total time allowed (D17). */
export function timeoutArg(doc: string) {
  return z.int().min(1).max(86_400).default(30).describe(doc);
}

export const deploymentName = (d: V1Deployment): string => d.metadata?.name ?? '';

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

/** The condition of the waits: every expected replica is ready. */
export function isFullyReady(d: V1Deployment): boolean {
  const { desired, ready } = replicaCounts(d);
  return ready === desired;
}

/** "namespace 'x'" or "namespace 'x' with label selector 'y'": where a deployment was looked for. */
export function whereLooked(ns: string, labelSelector: string | null | undefined): string {
  return `namespace '${ns}'${labelSelector ? ` matching label selector '${labelSelector}'` : ''}`;
}

/** The deployments of the namespace matching the selectors (filtered on the server, paginated). */
export function listDeployments(
  apps: AppsV1Api,
  ns: string,
  selectors: { labelSelector?: string | null; fieldSelector?: string } = {},
): Promise<V1Deployment[]> {
  return listAll(
    (page) =>
      apps.listNamespacedDeployment({
        namespace: ns,
        ...(selectors.labelSelector ? { labelSelector: selectors.labelSelector } : {}),
        ...(selectors.fieldSelector ? { fieldSelector: selectors.fieldSelector } : {}),
        ...page,
      }),
    { context: { verb: 'list', resource: 'deployments', namespace: ns } },
  );
}

export const byName = (name: string): string => `metadata.name=${name}`;
