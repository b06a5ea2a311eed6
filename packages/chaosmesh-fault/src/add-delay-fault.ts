import { fixedDelay } from './args.js';
import { addFaultActivity } from './one-kind.js';

export const addDelayFaultActivity = addFaultActivity({
  kind: 'delay',
  doc: 'Delays requests by a fixed time on the http routes of the VirtualService that send to the given destinations. Sets the delay and keeps an existing abort; other http routes are untouched. Returns the updated VirtualService.',
  value: { fixed_delay: fixedDelay },
  fault: (args) => ({ fixedDelay: args.fixed_delay, percentage: args.percentage }),
});

export const addDelayFault = addDelayFaultActivity.fn;
