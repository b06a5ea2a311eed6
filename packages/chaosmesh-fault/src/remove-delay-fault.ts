import { removeFaultActivity } from './one-kind.js';

export const removeDelayFaultActivity = removeFaultActivity(
  'delay',
  'Removes the delay fault from the http routes of the VirtualService that send to the given destinations, keeping their abort. Returns the updated VirtualService (as it is when none of them had a delay).',
);

export const removeDelayFault = removeDelayFaultActivity.fn;
