import { defineActivity } from '@chaoskit/core';
import {
  findNodes,
  needingPatch,
  nodeApi,
  nodeName,
  nodeNameArg,
  nodeSelectorArg,
  patchUnschedulable,
} from './nodes.js';

export const uncordonNodeActivity = defineActivity({
  name: 'uncordon_node',
  kind: 'action',
  module: 'chaoscluster.node.actions',
  doc: 'Uncordons the matching nodes (spec.unschedulable false) so that pods are scheduled on them again; the rollback of cordon_node and drain_nodes. With neither name nor label_selector, every node of the cluster. Returns the names of the matching nodes, now all schedulable; none matching is an ActivityFailed.',
  args: {
    name: nodeNameArg('Name of the node to uncordon (combined with label_selector when both are given).'),
    label_selector: nodeSelectorArg('Label selector of the nodes to uncordon.'),
  },
  rbac: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list', 'patch'] }],
  async run(args, ctx) {
    const { core } = nodeApi(ctx.secrets);
    if (!args.name && !args.label_selector)
      ctx.log('neither name nor label_selector: every node is uncordoned');
    const { nodes } = await findNodes(core, {
      name: args.name,
      labelSelector: args.label_selector,
      all: true,
    });
    const todo = needingPatch(nodes, false);
    await patchUnschedulable(core, todo, false, ctx.dryRun);
    const names = nodes.map(nodeName);
    const already = names.filter((n) => !todo.includes(n));
    ctx.log(
      `uncordoned ${names.length} node(s): ${names.join(', ')}${already.length ? ` (already schedulable: ${already.join(', ')})` : ''}`,
    );
    return { nodes: names };
  },
});

export const uncordonNode = uncordonNodeActivity.fn;
