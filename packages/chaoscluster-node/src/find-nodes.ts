// The node selection of 0.25.1 (with D1, D3 and D29 of docs/decisions.md): nodes listed by
// name and label on the server, narrowed to those hosting matching pods, then chosen.

import { ActivityFailed, type KubeClient, Nodes, Pods, selectNodes } from '@chaoskit/core';
import type { V1Node, V1Pod } from '@kubernetes/client-node';

export interface NodeSelectionArgs {
  name?: string | null;
  labelSelector?: string | null;
  podLabelSelector?: string | null;
  podNamespace?: string | null;
  all?: boolean;
  rand?: boolean;
  count?: number | null;
  first?: boolean;
  seed?: number | null;
}

/** The words of an ActivityFailed when nothing matched. */
export function describeQuery(args: NodeSelectionArgs): string {
  const parts: string[] = [];
  if (args.name) parts.push(`named '${args.name}'`);
  if (args.labelSelector) parts.push(`matching label selector '${args.labelSelector}'`);
  if (args.podLabelSelector && args.podNamespace)
    parts.push(`hosting a pod that matches '${args.podLabelSelector}' in namespace '${args.podNamespace}'`);
  return parts.length ? `no node ${parts.join(' and ')}` : 'no node at all in the cluster';
}

/**
 * List by name/label, keep the nodes hosting matching pods (when both pod arguments are
 * given), then `selectNodes` (first, all, rand, count; never a node twice). Nothing to choose
 * from → ActivityFailed. For an action that takes nodes out (`takesOut`), the node rail
 * refuses a selection of every node of the cluster unless the run allows it.
 */
export async function findNodes(
  kube: KubeClient,
  args: NodeSelectionArgs,
  takesOut = false,
): Promise<{ nodes: V1Node[]; seed?: number }> {
  const nodes = await kube.list<V1Node>(Nodes, {
    fieldSelector: args.name ? `metadata.name=${args.name}` : null,
    labelSelector: args.labelSelector ?? null,
  });
  let hostingPods: V1Pod[] | undefined;
  if (nodes.length > 0 && args.podLabelSelector && args.podNamespace) {
    hostingPods = await kube.list<V1Pod>(Pods, {
      namespace: args.podNamespace,
      labelSelector: args.podLabelSelector,
    });
  }
  const { selected, seed } = selectNodes(nodes, {
    ...(args.all ? { all: true } : {}),
    ...(args.rand ? { rand: true } : {}),
    ...(args.first ? { first: true } : {}),
    ...(args.count !== undefined ? { count: args.count } : {}),
    ...(hostingPods ? { hostingPods } : {}),
    ...(typeof args.seed === 'number' ? { seed: args.seed } : {}),
  });
  if (selected.length === 0) throw new ActivityFailed(describeQuery(args));
  // Only a selection of every listed node can be every node of the cluster.
  if (takesOut && kube.safety && selected.length === nodes.length) {
    const filtered = args.name || args.labelSelector || hostingPods;
    kube.safety.checkNodes(kube.activity, selected.length, filtered ? await kube.count(Nodes) : nodes.length);
  }
  return seed === undefined ? { nodes: selected } : { nodes: selected, seed };
}
