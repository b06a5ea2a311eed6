import { ActivityFailed, defineActivity, isApiError, namespaceArg, Services } from '@chaoskit/core';
import { serviceNameArg } from './args.js';
import { ACTIONS } from './modules.js';

export const deleteServiceActivity = defineActivity({
  name: 'delete_service',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes the Service called name in namespace ns. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: '`{ service, namespace }`',
  args: {
    name: serviceNameArg('Name of the Service to delete.'),
    ns: namespaceArg('Namespace of the Service.'),
  },
  rbac: [{ apiGroups: [''], resources: ['services'], verbs: ['delete'] }],
  async run(args, ctx) {
    try {
      await ctx.kube.delete(Services, args.name, { namespace: args.ns });
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
      if (ctx.dryRun) {
        ctx.log(`service ${args.name} is not in namespace ${args.ns} now (dry run: nothing changed)`);
        return { service: args.name, namespace: args.ns };
      }
      throw new ActivityFailed(`there is no service '${args.name}' in namespace '${args.ns}' to remove`, {
        cause: err,
      });
    }
    ctx.log(`deleted service ${args.name} of namespace ${args.ns}`);
    return { service: args.name, namespace: args.ns };
  },
});

export const deleteService = deleteServiceActivity.fn;
