import { KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';
import type { SharedClusterInfo } from '../vitest-global-setup.js';

export type { SharedClusterInfo };

/** The run's shared local cluster (started by the cluster project's global setup). */
export function sharedCluster(): SharedClusterInfo & { kc: KubeConfig } {
  const info = inject('cluster');
  const kc = new KubeConfig();
  kc.loadFromString(info.kubeconfig);
  return { ...info, kc };
}

/** Secrets that point an activity at the shared cluster, as its admin (a token, no kubeconfig). */
export function adminSecrets(info: SharedClusterInfo = inject('cluster')): Record<string, string> {
  return {
    CLUSTER_HOST: info.credentials.server,
    CLUSTER_API_KEY: info.credentials.token,
    CLUSTER_CA_CERT_FILE: info.credentials.caFile,
  };
}
