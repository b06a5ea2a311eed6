import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll } from 'vitest';
import { sharedCluster } from './shared-cluster.js';
import { until } from './until.js';

/** Creates namespace `name`, labelled as a test's, once it can take pods. */
export async function createNamespace(kc: KubeConfig, name: string): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name, labels: { 'chaoskit.io/test': 'true' } } } });
  // Pods are refused until the namespace's default service account exists.
  await until(
    `the default service account of ${name}`,
    async () =>
      (await core.listNamespacedServiceAccount({ namespace: name })).items.some(
        (sa) => sa.metadata?.name === 'default',
      ),
    10_000,
    50,
  );
}

let counter = 0;

/** A fresh namespace for one test, deleted by the returned function. */
export async function testNamespace(
  kc: KubeConfig,
  prefix = 'test',
): Promise<{ name: string; remove(): Promise<void> }> {
  const name = `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`.slice(0, 63);
  await createNamespace(kc, name);
  return {
    name,
    remove: async () => {
      await kc
        .makeApiClient(CoreV1Api)
        .deleteNamespace({ name })
        .catch(() => undefined);
    },
  };
}

/**
 * What a README example expects of its reader's shell, on the shared cluster: KUBECONFIG
 * pointing at it, and the namespace the README names. Both are undone after the file's tests;
 * call it at the top level of a test file.
 */
export async function readmeNamespace(name: string): Promise<void> {
  const { kc, kubeconfigPath } = sharedCluster();
  const previous = process.env.KUBECONFIG;
  process.env.KUBECONFIG = kubeconfigPath;
  afterAll(async () => {
    if (previous === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previous;
    await kc
      .makeApiClient(CoreV1Api)
      .deleteNamespace({ name })
      .catch(() => undefined);
  });
  await createNamespace(kc, name);
}
