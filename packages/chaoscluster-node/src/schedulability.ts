import { defineActivity, objectName } from '@chaoskit/core';
import { nodeNameArg, nodeSelectorArg } from './args.js';
import { needingPatch, patchUnschedulable } from './cordon.js';
import { findNodes } from './find-nodes.js';
import { ACTIONS } from './modules.js';

/** cordon_node and uncordon_node: one mechanism, spec.unschedulable set to `cordon`. */
export function schedulabilityActivity<const Name extends 'cordon_node' | 'uncordon_node'>(
  name: Name,
  doc: string,
) {
  const cordon = name === 'cordon_node';
  const verb = cordon ? 'cordon' : 'uncordon';
  return defineActivity({
    name,
    kind: 'action',
    module: ACTIONS,
    doc,
    returns: '`{ nodes: string[] }`',
    args: {
      name: nodeNameArg(`Name of the node to ${verb} (combined with label_selector when both are given).`),
      label_selector: nodeSelectorArg(`Label selector of the nodes to ${verb}.`),
    },
    rbac: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list', 'patch'] }],
    async run(args, ctx) {
      if (!args.name && !args.label_selector)
        ctx.log(`neither name nor label_selector: every node is ${verb}ed`);
      const { nodes } = await findNodes(
        ctx.kube,
        {
          name: args.name,
          labelSelector: args.label_selector,
          all: true,
        },
        cordon,
      );
      const todo = needingPatch(nodes, cordon);
      await patchUnschedulable(ctx.kube, todo, cordon, nodes);
      const names = nodes.map(objectName);
      const already = names.filter((n) => !todo.includes(n));
      ctx.log(
        `${verb}ed ${names.length} node(s): ${names.join(', ')}${already.length ? ` (already ${cordon ? 'cordoned' : 'schedulable'}: ${already.join(', ')})` : ''}`,
      );
      return { nodes: names };
    },
  });
}
