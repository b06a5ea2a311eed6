import type { V1Deployment } from '@kubernetes/client-node';
import type { CaseContext } from '../../case-context.js';

import { activityFailure, fileWriter } from '../shared-fixtures.js';

export { activityFailure, fileWriter as specDir };

/** A Deployment as a user would write it in a spec file (no namespace unless given). */
export function deploymentDoc(
  name: string,
  replicas: number,
  extra: { labels?: Record<string, string>; namespace?: string } = {},
): V1Deployment {
  const labels = { app: name, ...extra.labels };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels, ...(extra.namespace ? { namespace: extra.namespace } : {}) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'app', image: 'example.invalid/app:1' }],
        },
      },
    },
  };
}

/** The names of the deployments of the scenario's namespace, sorted. */
export async function deploymentNames(t: CaseContext): Promise<string[]> {
  const list = await t.apps.listNamespacedDeployment({ namespace: t.ns });
  return list.items.map((d) => d.metadata!.name!).sort();
}

/**
 * A Deployment whose pods can never be scheduled (a nodeSelector no node has): it stays at
 * 0 ready of `replicas`. Returns once the controller has reported its status.
 */
export async function stuckDeployment(t: CaseContext, name: string, replicas: number): Promise<void> {
  const body = deploymentDoc(name, replicas);
  body.spec!.template.spec!.nodeSelector = { 'chaoskit.io/no-such-node': 'true' };
  await t.apps.createNamespacedDeployment({ namespace: t.ns, body });
  await t.until(`deployment ${name} observed, with ${replicas} pods pending`, async () => {
    const d = await t.apps.readNamespacedDeployment({ name, namespace: t.ns });
    const pods = await t.podNames(`app=${name}`);
    return (d.status?.observedGeneration ?? 0) >= 1 && pods.length === replicas;
  });
}

/** Reads the deployment's replica counts (admin view). */
export async function replicasOf(t: CaseContext, name: string) {
  const d = await t.apps.readNamespacedDeployment({ name, namespace: t.ns });
  return {
    desired: d.spec?.replicas,
    ready: d.status?.readyReplicas ?? 0,
    available: d.status?.availableReplicas ?? 0,
  };
}
