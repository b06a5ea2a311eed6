import { defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, ns, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import { removeFault } from './routes.js';
import { editTarget } from './virtual-service.js';

export const unsetFaultActivity = defineActivity({
  name: 'unset_fault',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the whole fault injection (abort and delay) from the http routes of the VirtualService that send to the given destinations. Other http routes keep theirs. Returns the updated VirtualService (as it is when none of them had a fault).',
  returns: 'the updated VirtualService (as it is, when nothing had to change)',
  args: { virtual_service_name: virtualServiceName, routes, ns, version },
  rbac: ACTION_RBAC,
  run(args, ctx) {
    return editTarget(args, ctx, removeFault, 'removed the fault');
  },
});

export const unsetFault = unsetFaultActivity.fn;
