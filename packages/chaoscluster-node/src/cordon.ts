// Cordoning: spec.unschedulable set on nodes, shared by cordon_node, uncordon_node and drain_nodes.

import { bulk, type KubeClient, Nodes, objectName } from '@chaoskit/core';
import type { V1Node } from '@kubernetes/client-node';

/**
 * Sets spec.unschedulable on each of the named nodes (a merge patch per node, with bounded
 * concurrency). Returns the names patched.
 */
export function patchUnschedulable(
  kube: KubeClient,
  names: readonly string[],
  unschedulable: boolean,
): Promise<string[]> {
  return bulk(names, (name) => kube.patch(Nodes, name, { spec: { unschedulable } }, 'merge'), {
    name: (name) => name,
    verb: unschedulable ? 'cordon node' : 'uncordon node',
  });
}

/** The nodes whose spec.unschedulable is not already `unschedulable`. */
export function needingPatch(nodes: readonly V1Node[], unschedulable: boolean): string[] {
  return nodes.filter((node) => Boolean(node.spec?.unschedulable) !== unschedulable).map(objectName);
}
