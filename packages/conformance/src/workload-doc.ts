// Workloads as a user would write them, for the cases' fixtures.
import type { V1Pod } from '@kubernetes/client-node';

/**
 * A Deployment or StatefulSet as a user would write it in a spec file (no namespace unless
 * given): pods labelled app=<name> and `labels`, one container whose image kwok never pulls.
 * `spec` adds to the workload's spec, `podSpec` to its pods'.
 */
export function workloadDoc(
  kind: 'Deployment' | 'StatefulSet',
  name: string,
  replicas: number,
  extra: {
    labels?: Record<string, string>;
    namespace?: string;
    spec?: Record<string, unknown>;
    podSpec?: Partial<V1Pod['spec']>;
  } = {},
) {
  const labels = { app: name, ...extra.labels };
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, labels, ...(extra.namespace ? { namespace: extra.namespace } : {}) },
    spec: {
      replicas,
      ...extra.spec,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'app', image: 'example.invalid/app:1' }],
          ...extra.podSpec,
        },
      },
    },
  };
}

/** A node selector no node matches: pods that ask for it stay Pending, unschedulable. */
export const NO_SUCH_NODE = { 'chaoskit.io/no-such-node': 'true' };
