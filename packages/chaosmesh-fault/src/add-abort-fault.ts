import { defineActivity } from '@chaoskit/core';
import { ACTION_RBAC, httpStatus, ns, percentage, routes, version, virtualServiceName } from './args.js';
import { ACTIONS } from './modules.js';
import { type AbortFault, describeFault, setFaultKind } from './routes.js';
import { editTarget } from './virtual-service.js';

export const addAbortFaultActivity = defineActivity({
  name: 'add_abort_fault',
  kind: 'action',
  module: ACTIONS,
  doc: 'Aborts requests early with the given HTTP status on the http routes of the VirtualService that send to the given destinations. Sets the abort and keeps an existing delay; other http routes are untouched. Returns the updated VirtualService.',
  returns: 'the updated VirtualService',
  args: {
    virtual_service_name: virtualServiceName,
    http_status: httpStatus,
    routes,
    percentage,
    ns,
    version,
  },
  rbac: ACTION_RBAC,
  run(args, ctx) {
    const abort: AbortFault = { httpStatus: args.http_status, percentage: args.percentage };
    return editTarget(args, ctx, setFaultKind('abort', abort), `set ${describeFault({ abort })}`);
  },
});

export const addAbortFault = addAbortFaultActivity.fn;
