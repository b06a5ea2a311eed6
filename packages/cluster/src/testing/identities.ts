import { CoreV1Api, type KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';

export interface Grant {
  /** The role granted: a ClusterRole, or with `kind: 'Role'` a Role of the namespace. */
  role: string;
  kind?: 'ClusterRole' | 'Role';
  /** Where it is granted (the RoleBinding's namespace), when not the service account's own. */
  namespace?: string;
  /**
   * Granted cluster-wide by a ClusterRoleBinding of this name (the caller deletes it); otherwise
   * by a RoleBinding in the namespace, named after the role.
   */
  clusterBinding?: string;
}

/**
 * A service account `name` of `namespace`, bound to each grant, and a token for it: an identity
 * whose requests the audit log shows as `identity`.
 */
export async function serviceAccountToken(
  kc: KubeConfig,
  namespace: string,
  name: string,
  grants: Grant[],
): Promise<{ token: string; identity: string }> {
  const core = kc.makeApiClient(CoreV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  for (const { role, kind = 'ClusterRole', clusterBinding, namespace: where } of grants) {
    const binding = {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    };
    if (clusterBinding) {
      await rbac.createClusterRoleBinding({ body: { metadata: { name: clusterBinding }, ...binding } });
    } else if (where && where !== namespace) {
      // Another namespace's binding, shared by the files: named after who it binds.
      const bindingName = `${namespace}-${name}-${role}`.slice(0, 253);
      await rbac.createNamespacedRoleBinding({
        namespace: where,
        body: { metadata: { name: bindingName }, ...binding },
      });
    } else {
      await rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name: role }, ...binding } });
    }
  }
  return accountToken(kc, namespace, name);
}

/** A token of the existing service account `name` of `namespace` (one `chaoskit deploy` made). */
export async function accountToken(
  kc: KubeConfig,
  namespace: string,
  name: string,
): Promise<{ token: string; identity: string }> {
  const token = await kc.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
    name,
    namespace,
    body: { spec: { audiences: [] } },
  });
  return { token: token.status!.token!, identity: `system:serviceaccount:${namespace}:${name}` };
}

/**
 * `serviceAccountToken` on `cluster`, with the environment of a process that acts as that
 * identity and nothing else (`tokenEnv`).
 */
export async function serviceAccountEnv(
  cluster: { kc: KubeConfig; credentials: { server: string; caFile: string } },
  namespace: string,
  name: string,
  grants: Grant[],
): Promise<{ token: string; identity: string; env: NodeJS.ProcessEnv }> {
  const sa = await serviceAccountToken(cluster.kc, namespace, name, grants);
  return { ...sa, env: tokenEnv(cluster.credentials, sa.token) };
}

/**
 * A kubeconfig (YAML) with one cluster (`server`, trusted through `caFile`), the `users` given
 * (name → user entry), and one context per entry of `contexts` (context name → user name).
 */
export function kubeconfigYaml(
  cluster: { server: string; caFile: string; name?: string },
  users: Record<string, Record<string, unknown>>,
  contexts: Record<string, string>,
  current: string,
): string {
  const clusterName = cluster.name ?? 'c';
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: clusterName, cluster: { server: cluster.server, 'certificate-authority': cluster.caFile } },
    ],
    users: Object.entries(users).map(([name, user]) => ({ name, user })),
    contexts: Object.entries(contexts).map(([name, user]) => ({
      name,
      context: { cluster: clusterName, user },
    })),
    'current-context': current,
  });
}

/**
 * The environment of a process (the `chaoskit` command) that reaches the cluster at `server` as
 * `token` and nothing else: no kubeconfig of the machine's.
 */
export function tokenEnv(cluster: { server: string; caFile: string }, token: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CLUSTER_HOST: cluster.server,
    CLUSTER_API_KEY: token,
    CLUSTER_CA_CERT_FILE: cluster.caFile,
    KUBECONFIG: '/nonexistent',
  };
  delete env.CLUSTERCONFIG;
  return env;
}

/**
 * The environment of a process that reaches clusters through the kubeconfig at `path` only:
 * none of the variables that choose a cluster or a context (Chaos Toolkit's and chaoskit's).
 */
export function kubeconfigEnv(path: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: path, ...more };
  for (const key of [
    'CLUSTERCONFIG',
    'CLUSTER_HOST',
    'KUBERNETES_HOST',
    'CLUSTER_CONTEXT',
    'KUBERNETES_CONTEXT',
  ])
    delete env[key];
  return env;
}
