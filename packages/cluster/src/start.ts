import { startK3s } from './k3s-provider.js';
import { startFromKubeconfig } from './kubeconfig-provider.js';
import { startLocal } from './local/local-cluster.js';
import type { Cluster, LocalCluster, StartOptions } from './types.js';

export function start(options: StartOptions & { provider: 'local' }): Promise<LocalCluster>;
export function start(options?: StartOptions): Promise<Cluster>;
/** Starts (or, for `kubeconfig`, attaches to) a cluster. `stop()` undoes everything start did. */
export function start(options: StartOptions = {}): Promise<Cluster> {
  const istiod = options.mesh === 'istiod' || (typeof options.mesh === 'object' && options.mesh.istiod);
  if (istiod && options.provider === 'kubeconfig')
    return Promise.reject(
      new Error(
        'the istiod mesh mode runs on the local and k3s providers, not kubeconfig (chaoskit installs nothing into your cluster)',
      ),
    );
  switch (options.provider ?? 'local') {
    case 'local':
      return startLocal(options);
    case 'k3s':
      return startK3s(options);
    case 'kubeconfig':
      return startFromKubeconfig(options);
    default:
      throw new Error(`unknown cluster provider '${options.provider}': expected local, k3s or kubeconfig`);
  }
}
