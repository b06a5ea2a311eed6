import { defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, ns, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import { removeFaultKind } from './routes.js';
import { editTarget } from './virtual-service.js';

export const removeAbortFaultActivity = defineActivity({
  name: 'remove_abort_fault',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the abort fault from the http routes of the VirtualService that send to the given destinations, keeping their delay. Returns the updated VirtualService (as it is when none of them had an abort).',
  returns: 'the updated VirtualService (as it is, when nothing had to change)',
  args: { virtual_service_name: virtualServiceName, routes, ns, version },
  rbac: ACTION_RBAC,
  run(args, ctx) {
    return editTarget(args, ctx, removeFaultKind('abort'), 'removed the abort fault');
  },
});

export const removeAbortFault = removeAbortFaultActivity.fn;
