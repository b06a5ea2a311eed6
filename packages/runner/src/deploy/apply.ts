// Applying a deployment's objects and removing them, through core's write chain: a client with
// no run's record and no rails, as a deploy's writes are not chaos (D110). Each object goes out
// as a server-side apply under the field manager `chaoskit`.

import { isApiError, type KubeClient, type ResourceType } from '@chaoskit/core';
import { EXPERIMENT_LABEL } from '../journals/labels.js';
import { deploySelector, type Manifest } from './manifests.js';

const kind = (apiVersion: string, plural: string, kindName: string, namespaced: boolean): ResourceType => ({
  apiVersion,
  plural,
  kind: kindName,
  namespaced,
  noun: kindName.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
});

const RBAC = 'rbac.authorization.k8s.io/v1';
export const CronJobs = kind('batch/v1', 'cronjobs', 'CronJob', true);
export const Jobs = kind('batch/v1', 'jobs', 'Job', true);
/** The kinds a deployment is made of, in the order `undeploy` removes them (the workload first). */
export const DEPLOY_KINDS: readonly ResourceType[] = [
  CronJobs,
  Jobs,
  kind('v1', 'configmaps', 'ConfigMap', true),
  kind(RBAC, 'rolebindings', 'RoleBinding', true),
  kind(RBAC, 'roles', 'Role', true),
  kind(RBAC, 'clusterrolebindings', 'ClusterRoleBinding', false),
  kind(RBAC, 'clusterroles', 'ClusterRole', false),
  kind('v1', 'secrets', 'Secret', true),
  kind('v1', 'serviceaccounts', 'ServiceAccount', true),
];

export const FIELD_MANAGER = 'chaoskit';

function typeOf(manifest: Manifest): ResourceType {
  const type = DEPLOY_KINDS.find((t) => t.kind === manifest.kind && t.apiVersion === manifest.apiVersion);
  if (!type) throw new Error(`deploy makes no ${manifest.kind}`);
  return type;
}

/** How a line names an object: `rolebinding/chaoskit-web -n shop`. */
export function describe(manifest: { kind: string; metadata: { name: string; namespace?: string } }): string {
  const where = manifest.metadata.namespace ? ` -n ${manifest.metadata.namespace}` : '';
  return `${manifest.kind.toLowerCase()}/${manifest.metadata.name}${where}`;
}

/**
 * Applies each object in turn (server-side apply, field manager chaoskit); says each one applied.
 * A Secret (the runner's key) is created when there is none, and never applied over: the records
 * its runs sealed must still verify.
 */
export async function applyManifests(
  kube: KubeClient,
  manifests: readonly Manifest[],
  say: (line: string) => void,
): Promise<void> {
  for (const manifest of manifests) {
    const namespace = manifest.metadata.namespace ?? null;
    if (manifest.kind === 'Secret') {
      try {
        await kube.create(typeOf(manifest), manifest, { namespace });
        say(`${describe(manifest)} created${kube.dryRun ? ' (server dry run)' : ''}`);
      } catch (err) {
        if (!isApiError(err, 'Conflict')) throw err;
        say(`${describe(manifest)} kept`);
      }
      continue;
    }
    try {
      await kube.patch(typeOf(manifest), manifest.metadata.name, manifest, 'apply', {
        namespace,
        query: { fieldManager: FIELD_MANAGER, fieldValidation: 'Strict' },
      });
    } catch (err) {
      // A Job's pod cannot change once created: say what to do about it.
      if (manifest.kind === 'Job' && isApiError(err, 'Invalid') && /immutable/.test(err.message))
        throw new Error(
          `${err.message} — the Job exists with another pod: chaoskit undeploy ${manifest.metadata.labels?.[EXPERIMENT_LABEL] ?? ''} -n ${namespace} first`,
        );
      throw err;
    }
    say(`${describe(manifest)} applied${kube.dryRun ? ' (server dry run)' : ''}`);
  }
}

interface Listed {
  metadata: { name: string; namespace?: string };
}

/**
 * Deletes every object labelled as the deployment of `name` in `namespace` (its Roles in other
 * namespaces and its ClusterRoles included), the workload first; a Job's pods go with it.
 * Returns how many were deleted.
 */
export async function removeDeployment(
  kube: KubeClient,
  name: string,
  namespace: string,
  say: (line: string) => void,
): Promise<number> {
  const labelSelector = deploySelector(name, namespace);
  let removed = 0;
  for (const type of DEPLOY_KINDS) {
    // Roles and their bindings may be in the namespaces the experiment acts in.
    const everywhere = type.plural === 'roles' || type.plural === 'rolebindings';
    const items = await kube.list<Listed>(type, {
      namespace: type.namespaced && !everywhere ? namespace : null,
      labelSelector,
      metadataOnly: true,
    });
    for (const item of items) {
      try {
        await kube.delete(type, item.metadata.name, {
          namespace: item.metadata.namespace ?? null,
          body: { propagationPolicy: 'Background' },
        });
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
      removed += 1;
      say(`${describe({ kind: type.kind, metadata: item.metadata })} deleted`);
    }
  }
  return removed;
}
