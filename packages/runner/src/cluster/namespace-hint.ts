// What a command says when the namespace it was given does not exist (D163): one line naming it
// and the fix, instead of the apiserver's 404 or an empty listing that looks like "nothing here".
import { isApiError, Namespaces, type ResourceType } from '@chaoskit/core';

interface Getter {
  get<T>(type: ResourceType, name: string): Promise<T>;
}

/** The line that says `namespace` does not exist, if the cluster says so (an identity that may not read it learns nothing). */
export async function missingNamespace(kube: Getter, namespace: string): Promise<string | undefined> {
  const missing = await kube.get(Namespaces, namespace).then(
    () => false,
    (err: unknown) => isApiError(err, 'NotFound'),
  );
  return missing
    ? `namespace '${namespace}' does not exist: kubectl create namespace ${namespace}`
    : undefined;
}
