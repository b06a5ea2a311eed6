// A namespace for one test, deleted when disposed: `await using ns = await chaos.testNamespace()`.

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { ChaosTarget } from './target.js';

export interface TestNamespace extends AsyncDisposable {
  readonly name: string;
  /** Deletes the namespace (its deletion goes on in the cluster; this does not wait for it). */
  remove(): Promise<void>;
  /** Whether it was removed (disposed). */
  readonly removed: boolean;
}

export function kubeConfigOf(target: ChaosTarget): KubeConfig {
  const kc = new KubeConfig();
  if (target.kubeconfigPath) kc.loadFromFile(target.kubeconfigPath);
  else kc.loadFromDefault();
  if (target.context) kc.setCurrentContext(target.context);
  return kc;
}

let counter = 0;

/** Creates a namespace named `<prefix>-…`, once pods can be created in it. */
export async function testNamespace(target: ChaosTarget, prefix = 'chaos'): Promise<TestNamespace> {
  const core = kubeConfigOf(target).makeApiClient(CoreV1Api);
  const name = `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`.slice(0, 63);
  await core.createNamespace({ body: { metadata: { name, labels: { 'chaoskit.io/test': 'true' } } } });
  // Pods are refused until the namespace's default service account exists: watch for it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const accounts = await core.listNamespacedServiceAccount({ namespace: name });
    if (accounts.items.some((sa) => sa.metadata?.name === 'default')) break;
    if (Date.now() > deadline)
      throw new Error(`namespace ${name}: its default service account did not appear within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let removed = false;
  const remove = async () => {
    await core.deleteNamespace({ name }).catch((err: { code?: number }) => {
      if (err.code !== 404) throw err;
    });
    removed = true;
  };
  return {
    name,
    remove,
    get removed() {
      return removed;
    },
    [Symbol.asyncDispose]: remove,
  };
}
