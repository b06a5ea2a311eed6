import { ActivityFailed, defineActivity, isApiError, namespaceArg, StatefulSets, z } from '@chaoskit/core';
import { statefulSetNameArg } from './args.js';
import { ACTIONS } from './modules.js';

// StatefulSets' replicas are an int32.
const MAX_REPLICAS = 2_147_483_647;

export const scaleStatefulsetActivity = defineActivity({
  name: 'scale_statefulset',
  kind: 'action',
  module: ACTIONS,
  doc: 'Scales the stateful set up or down by setting its spec.replicas. Returns the name and the replicas now asked for; fails with ActivityFailed when there is no such stateful set.',
  returns: '`{ name, replicas }`',
  args: {
    name: statefulSetNameArg('Name of the stateful set (its own name, not a label).'),
    replicas: z.int().min(0).max(MAX_REPLICAS).describe('Number of replicas to ask for (0 stops every pod).'),
    ns: namespaceArg('Namespace of the stateful set.'),
  },
  rbac: [{ apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['patch'] }],
  async run(args, ctx) {
    try {
      await ctx.kube.patch(StatefulSets, args.name, { spec: { replicas: args.replicas } }, 'merge', {
        namespace: args.ns,
      });
    } catch (err) {
      if (isApiError(err, 'NotFound')) {
        throw new ActivityFailed(
          `failed to scale '${args.name}' to ${args.replicas} replicas: there is no stateful set '${args.name}' in namespace '${args.ns}'`,
          { cause: err },
        );
      }
      throw err;
    }
    ctx.log(`scaled stateful set ${args.name} of namespace ${args.ns} to ${args.replicas} replica(s)`);
    return { name: args.name, replicas: args.replicas };
  },
});

export const scaleStatefulset = scaleStatefulsetActivity.fn;
