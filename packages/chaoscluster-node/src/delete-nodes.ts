import { defineActivity, deleteAll, Nodes, objectName, seedArg, z } from '@chaoskit/core';
import { checkHostingPods, hostingPodArgs, nodeSelectorArg } from './args.js';
import { findNodes } from './find-nodes.js';
import { ACTIONS } from './modules.js';

export const deleteNodesActivity = defineActivity({
  name: 'delete_nodes',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes nodes (the API objects: they are not drained first, nor restarted), chosen among those matching label_selector and, with pod_label_selector and pod_namespace, hosting a matching pod (with neither selector every node is a candidate: refused unless every node is allowed, D92). all: every one; rand: one at random; count ≥ 1: that many at random (fewer when fewer match); otherwise the first. A node is never picked twice. Returns the names of the nodes deleted (and the seed of a random choice); none matching is an ActivityFailed.',
  returns: '`{ nodes: string[], seed? }`',
  args: {
    label_selector: nodeSelectorArg(
      'Label selector of the candidate nodes; absent (and no pod_label_selector): every node, refused unless every node is allowed (D92).',
    ),
    all: z
      .boolean()
      .default(false)
      .describe('Delete every candidate node (rand and count are then ignored).'),
    rand: z.boolean().default(false).describe('Delete one candidate node picked at random.'),
    count: z
      .int()
      .min(0)
      .nullable()
      .default(null)
      .describe(
        'Delete this many distinct candidate nodes picked at random (all of them when fewer match); 0 or absent: the first candidate, unless all or rand.',
      ),
    grace_period_seconds: z
      .int()
      .min(0)
      .nullable()
      .default(null)
      .describe("Grace period of the deletion in seconds; absent: the server's default."),
    ...hostingPodArgs(),
    seed: seedArg(
      'Seed of the random choice (rand, count); the seed used is part of the result, to repeat a run.',
    ),
  },
  check: checkHostingPods,
  rbac: [
    { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'delete'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
  ],
  async run(args, ctx) {
    // D92: without a selector, 0.25.1 deleted the first node the cluster listed.
    if (!args.label_selector && !args.pod_label_selector)
      ctx.safety.checkNodeSelector(
        ctx.activity.qualifiedName,
        'label_selector',
        "label_selector (the nodes' labels, e.g. 'pool=batch'), or pod_label_selector with pod_namespace (the nodes hosting those pods)",
      );
    const { nodes, seed } = await findNodes(
      ctx.kube,
      {
        labelSelector: args.label_selector,
        podLabelSelector: args.pod_label_selector,
        podNamespace: args.pod_namespace,
        all: args.all,
        rand: args.rand,
        count: args.count,
        seed: args.seed,
      },
      true,
    );
    const deleted = await deleteAll(ctx.kube, Nodes, nodes, {
      ...(args.grace_period_seconds === null
        ? {}
        : { query: { gracePeriodSeconds: args.grace_period_seconds } }),
    });
    const names = deleted.map(objectName);
    ctx.log(
      `deleted ${names.length} node(s): ${names.join(', ')}${seed === undefined ? '' : ` (random choice, seed ${seed})`}`,
    );
    return seed === undefined ? { nodes: names } : { nodes: names, seed };
  },
});

export const deleteNodes = deleteNodesActivity.fn;
