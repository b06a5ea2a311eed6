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

export const cordonNodeActivity = defineActivity({
  name: 'cordon_node',
  kind: 'action',
  module: 'chaoscluster.node.actions',
  doc: 'Cordons the matching nodes (spec.unschedulable true) so that no new pod is scheduled on them. With neither name nor label_selector, every node of the cluster. Returns the names of the matching nodes, now all cordoned; none matching is an ActivityFailed. Undo with uncordon_node.',
  args: {
    name: nodeNameArg('Name of the node to cordon (combined with label_selector when both are given).'),
    label_selector: nodeSelectorArg('Label selector of the nodes to cordon.'),
  },
  rbac: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list', 'patch'] }],
  async run(args, ctx) {
    const { core } = nodeApi(ctx.secrets);
    if (!args.name && !args.label_selector)
      ctx.log('neither name nor label_selector: every node is cordoned');
    const { nodes } = await findNodes(core, {
      name: args.name,
      labelSelector: args.label_selector,
      all: true,
    });
    const todo = needingPatch(nodes, true);
    await patchUnschedulable(core, todo, true, ctx.dryRun);
    const names = nodes.map(nodeName);
    const already = names.filter((n) => !todo.includes(n));
    ctx.log(
      `cordoned ${names.length} node(s): ${names.join(', ')}${already.length ? ` (already cordoned: ${already.join(', ')})` : ''}`,
    );
    return { nodes: names };
  },
});

export const cordonNode = cordonNodeActivity.fn;
