import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { testNamespace } from './namespaces.js';

/**
 * A fresh namespace for the tests of the file that calls it (at its top level): made before
 * them, removed after them. Its `name` is there once the file's hooks and tests run.
 */
export function fileNamespace(kc: KubeConfig, prefix: string): { readonly name: string } {
  let ns: Awaited<ReturnType<typeof testNamespace>> | undefined;
  beforeAll(async () => {
    ns = await testNamespace(kc, prefix);
  });
  afterAll(async () => {
    await ns?.remove();
  });
  return {
    get name() {
      if (!ns)
        throw new Error(`the ${prefix} namespace is made before the file's tests: read its name in them`);
      return ns.name;
    },
  };
}
