import { ActivityFailed, Deployments, defineActivity, isApiError, namespaceArg, z } from '@chaoskit/core';
import { deploymentNameArg } from './args.js';
import { ACTIONS } from './modules.js';

// Deployments' replicas are an int32.
const MAX_REPLICAS = 2_147_483_647;

export const scaleDeploymentActivity = defineActivity({
  name: 'scale_deployment',
  kind: 'action',
  module: ACTIONS,
  doc: 'Scales the deployment up or down by setting its spec.replicas. Returns the name and the replicas now asked for.',
  returns: '`{ name, replicas }`',
  args: {
    name: deploymentNameArg('Name of the deployment (its own name, not a label).'),
    replicas: z.int().min(0).max(MAX_REPLICAS).describe('Number of replicas to ask for (0 stops every pod).'),
    ns: namespaceArg('Namespace of the deployment.'),
  },
  rbac: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }],
  async run(args, ctx) {
    try {
      await ctx.kube.patch(Deployments, args.name, { spec: { replicas: args.replicas } }, 'merge', {
        namespace: args.ns,
      });
    } catch (err) {
      if (isApiError(err, 'NotFound')) {
        throw new ActivityFailed(
          `failed to scale '${args.name}' to ${args.replicas} replicas: there is no deployment '${args.name}' in namespace '${args.ns}'`,
          { cause: err },
        );
      }
      throw err;
    }
    ctx.log(`scaled deployment ${args.name} of namespace ${args.ns} to ${args.replicas} replica(s)`);
    return { name: args.name, replicas: args.replicas };
  },
});

export const scaleDeployment = scaleDeploymentActivity.fn;
