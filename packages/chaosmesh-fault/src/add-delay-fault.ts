import { defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, fixedDelay, ns, percentage, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import { type DelayFault, describeFault, setFaultKind } from './routes.js';
import { editTarget } from './virtual-service.js';

export const addDelayFaultActivity = defineActivity({
  name: 'add_delay_fault',
  kind: 'action',
  module: ACTIONS,
  doc: 'Delays requests by a fixed time on the http routes of the VirtualService that send to the given destinations. Sets the delay and keeps an existing abort; other http routes are untouched. Returns the updated VirtualService.',
  returns: 'the updated VirtualService',
  args: {
    virtual_service_name: virtualServiceName,
    fixed_delay: fixedDelay,
    routes,
    percentage,
    ns,
    version,
  },
  rbac: ACTION_RBAC,
  run(args, ctx) {
    const delay: DelayFault = { fixedDelay: args.fixed_delay, percentage: args.percentage };
    return editTarget(args, ctx, setFaultKind('delay', delay), `set ${describeFault({ delay })}`);
  },
});

export const addDelayFault = addDelayFaultActivity.fn;
