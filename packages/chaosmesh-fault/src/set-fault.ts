import { defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, fault, ns, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import { describeFault, replaceFault } from './routes.js';
import { editTarget } from './virtual-service.js';

export const setFaultActivity = defineActivity({
  name: 'set_fault',
  kind: 'action',
  module: ACTIONS,
  doc: 'Sets the fault injection of the http routes of the VirtualService that send to the given destinations: their fault becomes exactly the given one (an existing fault is replaced). Other http routes are untouched. Returns the updated VirtualService.',
  returns: 'the updated VirtualService',
  args: {
    virtual_service_name: virtualServiceName,
    routes,
    fault,
    ns,
    version,
  },
  rbac: ACTION_RBAC,
  run(args, ctx) {
    return editTarget(args, ctx, replaceFault(args.fault), `set the fault to ${describeFault(args.fault)}`);
  },
});

export const setFault = setFaultActivity.fn;
