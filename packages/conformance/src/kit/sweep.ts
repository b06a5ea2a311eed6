import { CoreV1Api, type KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { CASE_LABEL, RUN_LABEL } from '../case-context.js';

/**
 * Deletes what the kit created, found by its labels: namespaces (with all they hold), cluster
 * roles and bindings, and nodes — of one case, or of one whole run. Run after every case and
 * when a run is interrupted, so nothing of the kit is left behind whatever happened; never
 * wider than one run, since other runs may share the cluster.
 */
export async function sweep(
  kc: KubeConfig,
  scope: { caseId: string } | { runId: string },
): Promise<string[]> {
  const labelSelector = 'caseId' in scope ? `${CASE_LABEL}=${scope.caseId}` : `${RUN_LABEL}=${scope.runId}`;
  const core = kc.makeApiClient(CoreV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const removed: string[] = [];
  const remove = async (
    kind: string,
    names: Array<string | undefined>,
    del: (name: string) => Promise<unknown>,
  ) => {
    for (const name of names) {
      if (!name) continue;
      await del(name).then(
        () => removed.push(`${kind}/${name}`),
        () => undefined,
      );
    }
  };
  await remove(
    'namespace',
    (await core.listNamespace({ labelSelector })).items.map((n) => n.metadata?.name),
    (name) => core.deleteNamespace({ name }),
  );
  await remove(
    'clusterrolebinding',
    (await rbac.listClusterRoleBinding({ labelSelector })).items.map((b) => b.metadata?.name),
    (name) => rbac.deleteClusterRoleBinding({ name }),
  );
  await remove(
    'clusterrole',
    (await rbac.listClusterRole({ labelSelector })).items.map((r) => r.metadata?.name),
    (name) => rbac.deleteClusterRole({ name }),
  );
  await remove(
    'node',
    (await core.listNode({ labelSelector })).items.map((n) => n.metadata?.name),
    (name) => core.deleteNode({ name }),
  );
  return removed;
}
