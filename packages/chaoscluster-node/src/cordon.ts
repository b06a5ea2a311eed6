// Cordoning: spec.unschedulable set on nodes, shared by cordon_node, uncordon_node and drain_nodes.

import { bulk, type KubeClient, lookAfterAbort, mapLimit, Nodes, objectName } from '@chaoskit/core';
import type { V1Node } from '@kubernetes/client-node';

/**
 * Sets spec.unschedulable on each of the named nodes (a merge patch per node, with bounded
 * concurrency). `known` are the nodes as just listed: the run's record takes their fields from
 * them instead of reading each node again. Returns the names patched.
 */
export function patchUnschedulable(
  kube: KubeClient,
  names: readonly string[],
  unschedulable: boolean,
  known: readonly V1Node[] = [],
): Promise<string[]> {
  const before = (name: string) => known.find((node) => objectName(node) === name);
  const patch = (name: string) =>
    kube.patch(
      Nodes,
      name,
      { spec: { unschedulable } },
      'merge',
      before(name) ? { before: before(name) } : {},
    );
  return bulk(names, patch, {
    name: (name) => name,
    verb: unschedulable ? 'cordon node' : 'uncordon node',
    words: { done: unschedulable ? 'cordoned' : 'uncordoned' },
    ...(kube.options.signal ? { signal: kube.options.signal } : {}),
    settle: (under) => schedulability(kube, under, unschedulable),
  });
}

/** After an abort: which of the nodes are now as the patch would have left them. */
async function schedulability(
  kube: KubeClient,
  names: readonly string[],
  unschedulable: boolean,
): Promise<Map<string, boolean>> {
  const look = lookAfterAbort(kube);
  const known = new Map<string, boolean>();
  await mapLimit(names, names.length, async (name) => {
    const node = await look.get<V1Node>(Nodes, name).catch(() => undefined);
    if (node) known.set(name, Boolean(node.spec?.unschedulable) === unschedulable);
  });
  return known;
}

/** The nodes whose spec.unschedulable is not already `unschedulable`. */
export function needingPatch(nodes: readonly V1Node[], unschedulable: boolean): string[] {
  return nodes.filter((node) => Boolean(node.spec?.unschedulable) !== unschedulable).map(objectName);
}
