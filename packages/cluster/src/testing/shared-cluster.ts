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
