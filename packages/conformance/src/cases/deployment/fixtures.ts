import type { V1Deployment, V1PodSpec } from '@kubernetes/client-node';
import type { CaseContext } from '../../case-context.js';
import { NO_SUCH_NODE, workloadDoc } from '../../workload-doc.js';

import { activityFailure, fileWriter, untilPending } from '../shared-fixtures.js';

export { activityFailure, fileWriter as specDir };

/** A Deployment as a user would write it in a spec file (no namespace unless given). */
export function deploymentDoc(
  name: string,
  replicas: number,
  extra: { labels?: Record<string, string>; namespace?: string; podSpec?: Partial<V1PodSpec> } = {},
): V1Deployment {
  return workloadDoc('Deployment', name, replicas, extra);
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
  await t.apps.createNamespacedDeployment({
    namespace: t.ns,
    body: deploymentDoc(name, replicas, { podSpec: { nodeSelector: NO_SUCH_NODE } }),
  });
  await untilPending(t, { noun: 'deployment', name, replicas }, () =>
    t.apps.readNamespacedDeployment({ name, namespace: t.ns }),
  );
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
