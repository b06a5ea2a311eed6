import { CoreV1Api, KubeConfig, V1Namespace } from '@kubernetes/client-node';
import { inject } from 'vitest';
import type { SharedClusterInfo } from './vitest-global-setup.js';

export type { SharedClusterInfo };

/** The run's shared local cluster (started by the cluster project's global setup). */
export function sharedCluster(): SharedClusterInfo & { kc: KubeConfig } {
  const info = inject('cluster');
  const kc = new KubeConfig();
  kc.loadFromString(info.kubeconfig);
  return { ...info, kc };
}

let counter = 0;

/** A fresh namespace for one test, deleted by the returned function. */
export async function testNamespace(
  kc: KubeConfig,
  prefix = 'test',
): Promise<{ name: string; remove(): Promise<void> }> {
  const core = kc.makeApiClient(CoreV1Api);
  const name = `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`.slice(0, 63);
  const ns = new V1Namespace();
  ns.metadata = { name, labels: { 'chaoskit.io/test': 'true' } };
  await core.createNamespace({ body: ns });
  // Pods are refused until the namespace's default service account exists.
  for (let i = 0; i < 100; i++) {
    const sas = await core.listNamespacedServiceAccount({ namespace: name });
    if (sas.items.some((sa) => sa.metadata?.name === 'default')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    name,
    remove: async () => {
      await core.deleteNamespace({ name }).catch(() => undefined);
    },
  };
}
