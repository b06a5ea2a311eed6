import { defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, ns, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import { removeFaultKind } from './routes.js';
import { editTarget } from './virtual-service.js';

export const removeDelayFaultActivity = defineActivity({
  name: 'remove_delay_fault',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the delay fault from the http routes of the VirtualService that send to the given destinations, keeping their abort. Returns the updated VirtualService (as it is when none of them had a delay).',
  returns: 'the updated VirtualService (as it is, when nothing had to change)',
  args: { virtual_service_name: virtualServiceName, routes, ns, version },
  rbac: ACTION_RBAC,
  run(args, ctx) {
    return editTarget(args, ctx, removeFaultKind('delay'), 'removed the delay fault');
  },
});

export const removeDelayFault = removeDelayFaultActivity.fn;
