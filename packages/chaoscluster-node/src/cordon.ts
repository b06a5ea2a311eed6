// Cordoning: spec.unschedulable set on nodes, shared by cordon_node, uncordon_node and drain_nodes.

import { bulk, type KubeClient, Nodes, objectName } from '@chaoskit/core';
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
  });
}

/** The nodes whose spec.unschedulable is not already `unschedulable`. */
export function needingPatch(nodes: readonly V1Node[], unschedulable: boolean): string[] {
  return nodes.filter((node) => Boolean(node.spec?.unschedulable) !== unschedulable).map(objectName);
}
