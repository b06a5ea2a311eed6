// Fixtures shared by the statefulset cases: stateful sets as a user would write them, ones whose
// pods come up, ones whose pods never can, and their replica counts.
import type { V1PodSpec, V1StatefulSet } from '@kubernetes/client-node';
import type { CaseContext } from '../../case-context.js';
import { NO_SUCH_NODE, workloadDoc } from '../../workload-doc.js';

import { activityFailure, fileWriter, untilPending } from '../shared-fixtures.js';

export { activityFailure, fileWriter as specDir };

/** A StatefulSet as a user would write it in a spec file (no namespace unless given). */
export function statefulSetDoc(
  name: string,
  replicas: number,
  extra: { labels?: Record<string, string>; namespace?: string; podSpec?: Partial<V1PodSpec> } = {},
): V1StatefulSet {
  return workloadDoc('StatefulSet', name, replicas, {
    ...extra,
    // Every pod at once: quicker than one after the other, and the same for the probes.
    spec: { serviceName: name, podManagementPolicy: 'Parallel' },
  });
}

/** The stateful set's replica counts (admin view). */
export async function replicasOf(t: CaseContext, name: string) {
  const s = await t.apps.readNamespacedStatefulSet({ name, namespace: t.ns });
  return { desired: s.spec?.replicas, ready: s.status?.readyReplicas ?? 0 };
}

/** A StatefulSet whose `replicas` pods are all ready. */
export async function readyStatefulSet(
  t: CaseContext,
  name: string,
  replicas: number,
  labels: Record<string, string> = {},
): Promise<void> {
  await t.apps.createNamespacedStatefulSet({
    namespace: t.ns,
    body: statefulSetDoc(name, replicas, { labels }),
  });
  await t.until(`stateful set ${name} ready`, async () => (await replicasOf(t, name)).ready === replicas);
}

/**
 * A StatefulSet whose pods can never be scheduled (a nodeSelector no node has): it stays at
 * 0 ready of `replicas`. Returns once its pods exist.
 */
export async function stuckStatefulSet(t: CaseContext, name: string, replicas: number): Promise<void> {
  await t.apps.createNamespacedStatefulSet({
    namespace: t.ns,
    body: statefulSetDoc(name, replicas, { podSpec: { nodeSelector: NO_SUCH_NODE } }),
  });
  await untilPending(t, { noun: 'stateful set', name, replicas }, () =>
    t.apps.readNamespacedStatefulSet({ name, namespace: t.ns }),
  );
}

/** The names of the stateful sets of the scenario's namespace, sorted. */
export async function statefulSetNames(t: CaseContext): Promise<string[]> {
  const list = await t.apps.listNamespacedStatefulSet({ namespace: t.ns });
  return list.items.map((s) => s.metadata!.name!).sort();
}
