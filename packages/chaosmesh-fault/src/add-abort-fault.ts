import { httpStatus } from './args.js';
import { addFaultActivity } from './one-kind.js';

export const addAbortFaultActivity = addFaultActivity({
  kind: 'abort',
  doc: 'Aborts requests early with the given HTTP status on the http routes of the VirtualService that send to the given destinations. Sets the abort and keeps an existing delay; other http routes are untouched. Returns the updated VirtualService.',
  value: { http_status: httpStatus },
  fault: (args) => ({ httpStatus: args.http_status, percentage: args.percentage }),
});

export const addAbortFault = addAbortFaultActivity.fn;
