import { removeFaultActivity } from './one-kind.js';

export const removeAbortFaultActivity = removeFaultActivity(
  'abort',
  'Removes the abort fault from the http routes of the VirtualService that send to the given destinations, keeping their delay. Returns the updated VirtualService (as it is when none of them had an abort).',
);

export const removeAbortFault = removeAbortFaultActivity.fn;
