// The client-node APIs a test reads a cluster with, made once per test file from one config:
// `const { core, apps } = apisOf(cluster.kc)` instead of a makeApiClient line for each.
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  NetworkingV1Api,
  PolicyV1Api,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { kubeconfigYaml } from './identities.js';

export interface Apis {
  core: CoreV1Api;
  apps: AppsV1Api;
  batch: BatchV1Api;
  rbac: RbacAuthorizationV1Api;
  custom: CustomObjectsApi;
  networking: NetworkingV1Api;
  policy: PolicyV1Api;
}

/** Each API of `kc` (making one sends nothing: a client is a config and a base path). */
export function apisOf(kc: KubeConfig): Apis {
  return {
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    batch: kc.makeApiClient(BatchV1Api),
    rbac: kc.makeApiClient(RbacAuthorizationV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    networking: kc.makeApiClient(NetworkingV1Api),
    policy: kc.makeApiClient(PolicyV1Api),
  };
}

/**
 * The APIs as whoever holds `token` sees them, through client-node, not chaoskit: what a hostile
 * pod with a stolen token would send, rails and record aside.
 */
export function tokenApis(cluster: { server: string; caFile: string }, token: string): Apis {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(cluster, { a: { token } }, { a: 'a' }, 'a'));
  return apisOf(kc);
}
