// API discovery of the target's group version (`GET /apis/<group>/<version>`, readable by every
// authenticated user): what tells a missing custom resource definition, or the wrong variant
// for its scope, apart from a missing object when a request comes back 404.

import { isApiError, type KubeClient } from '@chaoskit/core';
import type { V1APIResource } from '@kubernetes/client-node';
import type { Operation } from './failures.js';
import type { Target } from './target.js';

type ServedResource = Pick<V1APIResource, 'name' | 'namespaced'>;

/** What discovery said of the target's group version. */
export type Discovery =
  | { served: true; resources: readonly ServedResource[] }
  | { served: false }
  | { error: string };

export async function discover(kube: KubeClient, target: Target): Promise<Discovery> {
  try {
    const list = await kube.request<{ resources?: ServedResource[] }>({
      method: 'GET',
      path: `/apis/${encodeURIComponent(target.group)}/${encodeURIComponent(target.version)}`,
    });
    return { served: true, resources: list?.resources ?? [] };
  } catch (err) {
    if (isApiError(err, 'NotFound')) return { served: false };
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Why a 404 came back when the path itself was not found (the server's plain "404 page not
 * found", not a Status about the object), from what discovery says of the group version.
 * Undefined when discovery does not explain it.
 */
export function explainMissingResource(op: Operation, discovery: Discovery): string | undefined {
  const { group, version, plural, namespace } = op.target;
  if ('error' in discovery) return undefined;
  if (!discovery.served) {
    return `the custom resource definition is missing: the cluster serves no API ${group}/${version} (install the definition of ${plural}.${group}, and check that it is established and serves version ${version})`;
  }
  const resources = discovery.resources.filter((r) => !r.name.includes('/'));
  const found = resources.find((r) => r.name === plural);
  if (!found) {
    const served = resources.map((r) => r.name).sort();
    return `the custom resource definition is missing: ${group}/${version} serves no resource '${plural}' (it serves ${served.length ? served.join(', ') : 'none'}; install the definition of ${plural}.${group}, or check the plural)`;
  }
  if (found.namespaced && namespace === undefined) {
    return `${plural}.${group} is namespaced: use ${op.variants.namespaced} with ns, not ${op.variants.cluster}`;
  }
  if (!found.namespaced && namespace !== undefined) {
    return `${plural}.${group} is cluster-scoped: use ${op.variants.cluster}, which takes no ns, not ${op.variants.namespaced}`;
  }
  return undefined;
}
