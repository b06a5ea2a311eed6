// Test-only (left out of the build): identities made of what `chaoskit rbac` prints, as a user
// binds it — each Role in its own namespace (the -halt Role in kube-system, D159), the others in
// the namespace given —, the identity bound to them, the grant that lets a test's identity read
// the cluster's halt lever, and the operators' key an administrator makes, and a kubeconfig file
// of one identity.
import { writeFile } from 'node:fs/promises';
import { type Grant, kubeconfigYaml, serviceAccountEnv } from '@chaoskit/cluster/testing';
import {
  connectionFor,
  createClusterClient,
  keySecret,
  LEDGER_KEY_SECRET,
  Transport,
} from '@chaoskit/core/runner';
import { CoreV1Api, type KubeConfig, RbacAuthorizationV1Api, type V1Role } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { CLUSTER_HALT_NAMESPACE, HALT_RULES } from '../guards/halt.js';

const created = (err: unknown) => {
  // A Role of kube-system is every file's: one made it first.
  if ((err as { code?: number }).code !== 409) throw err;
};

/**
 * Creates the Roles of `printed` (what `chaoskit rbac` wrote): each in the namespace it names,
 * else in `namespace`; returns the grants that bind them.
 */
export async function printedRoles(kc: KubeConfig, printed: string, namespace: string): Promise<Grant[]> {
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const grants: Grant[] = [];
  for (const role of loadAll(printed) as V1Role[]) {
    const where = role.metadata?.namespace ?? namespace;
    await rbac.createNamespacedRole({ namespace: where, body: role }).catch(created);
    grants.push({
      role: role.metadata!.name!,
      kind: 'Role',
      ...(where !== namespace ? { namespace: where } : {}),
    });
  }
  return grants;
}

/** The grant that lets an identity read the cluster's halt lever (as the -halt Role does). */
export async function clusterLeverReader(kc: KubeConfig): Promise<Grant> {
  const name = 'chaoskit-test-halt-reader';
  await kc
    .makeApiClient(RbacAuthorizationV1Api)
    .createNamespacedRole({
      namespace: CLUSTER_HALT_NAMESPACE,
      body: { metadata: { name }, rules: HALT_RULES.map((rule) => ({ ...rule })) },
    })
    .catch(created);
  return { role: name, kind: 'Role', namespace: CLUSTER_HALT_NAMESPACE };
}

/**
 * The operators' key of `namespace`, made as an administrator makes it once (D158): the
 * identities bound to the -ledger Role read it, and may not create it.
 */
export async function operatorsKey(kc: KubeConfig, namespace: string): Promise<void> {
  await kc
    .makeApiClient(CoreV1Api)
    .createNamespacedSecret({
      namespace,
      body: keySecret(LEDGER_KEY_SECRET, namespace, 'the operators key of a test namespace'),
    })
    .catch(created);
}

/**
 * The identity `name` of `namespace` a user makes of what `chaoskit rbac` printed (`printed`),
 * bound to `grants` too, once the operators' key of `namespace` is made (operatorsKey): its
 * token, its name in the audit log, and the environment of a process acting as it.
 */
export async function printedIdentity(
  cluster: Parameters<typeof serviceAccountEnv>[0],
  namespace: string,
  name: string,
  printed: string,
  grants: Grant[] = [],
): Promise<{ token: string; identity: string; env: NodeJS.ProcessEnv }> {
  await operatorsKey(cluster.kc, namespace);
  return serviceAccountEnv(cluster, namespace, name, [
    ...grants,
    ...(await printedRoles(cluster.kc, printed, namespace)),
  ]);
}

/**
 * A Transport (the client chaoskit's writes go through) to the cluster that `env` chooses, as the
 * identity it names there; `warn` takes the client's warnings (default: stderr).
 */
export function transportIn(env: NodeJS.ProcessEnv, warn?: (message: string) => void): Transport {
  return new Transport(connectionFor(createClusterClient({}, warn ? { env, warn } : { env })));
}

/** A kubeconfig file at `path` with one context, current: the cluster of `credentials`, as `token`. */
export async function tokenKubeconfig(
  path: string,
  credentials: Parameters<typeof kubeconfigYaml>[0],
  token: string,
): Promise<string> {
  await writeFile(path, kubeconfigYaml(credentials, { a: { token } }, { a: 'a' }, 'a'));
  return path;
}
