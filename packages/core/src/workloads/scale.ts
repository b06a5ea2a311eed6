// scale_deployment and scale_statefulset: one merge patch of spec.replicas, the same arguments and
// the same failure when the object is missing, for any workload type.

import { z } from 'zod';
import { namespaceArg } from '../arguments/args.js';
import { kubernetesName } from '../arguments/names.js';
import type { Activity } from '../definition/activity.js';
import { defineActivity } from '../definition/define-activity.js';
import { ActivityFailed, isApiError } from '../errors/errors.js';
import { apiGroupOf, type ResourceType } from '../transport/resources.js';

// spec.replicas is an int32.
const MAX_REPLICAS = 2_147_483_647;

const scaleArgs = (type: ResourceType) => ({
  name: kubernetesName(`a ${type.noun} name`).describe(
    `Name of the ${type.noun} (its own name, not a label).`,
  ),
  replicas: z.int().min(0).max(MAX_REPLICAS).describe('Number of replicas to ask for (0 stops every pod).'),
  ns: namespaceArg(`Namespace of the ${type.noun}.`),
});

/** The action that sets spec.replicas of one object of `type`, with its own name, module and doc. */
export function scaleAction(
  type: ResourceType,
  identity: { name: string; module: string; doc: string },
): Activity<ReturnType<typeof scaleArgs>, { name: string; replicas: number }, 'action'> {
  return defineActivity({
    ...identity,
    kind: 'action',
    returns: '`{ name, replicas }`',
    args: scaleArgs(type),
    rbac: [{ apiGroups: [apiGroupOf(type)], resources: [type.plural], verbs: ['patch'] }],
    async run(args, ctx) {
      try {
        await ctx.kube.patch(type, args.name, { spec: { replicas: args.replicas } }, 'merge', {
          namespace: args.ns,
        });
      } catch (err) {
        if (isApiError(err, 'NotFound')) {
          throw new ActivityFailed(
            `failed to scale '${args.name}' to ${args.replicas} replicas: there is no ${type.noun} '${args.name}' in namespace '${args.ns}'`,
            { cause: err },
          );
        }
        throw err;
      }
      ctx.log(`scaled ${type.noun} ${args.name} of namespace ${args.ns} to ${args.replicas} replica(s)`);
      return { name: args.name, replicas: args.replicas };
    },
  });
}
