import type { AnyActivity } from '@chaoskit/core';
import { addAbortFaultActivity } from './add-abort-fault.js';
import { addDelayFaultActivity } from './add-delay-fault.js';
import { getVirtualServiceActivity } from './get-virtual-service.js';
import { removeAbortFaultActivity } from './remove-abort-fault.js';
import { removeDelayFaultActivity } from './remove-delay-fault.js';
import { setFaultActivity } from './set-fault.js';
import { unsetFaultActivity } from './unset-fault.js';

export * from './add-abort-fault.js';
export * from './add-delay-fault.js';
export { DEFAULT_VERSION, type MeshVersion, VERSIONS } from './args.js';
export { parseGoDuration } from './duration.js';
export * from './get-virtual-service.js';
export * from './remove-abort-fault.js';
export * from './remove-delay-fault.js';
export type { AbortFault, DelayFault, Fault, HttpRoute, Percent, RouteSelector } from './routes.js';
export * from './set-fault.js';
export * from './unset-fault.js';
export type { VirtualService } from './virtual-service.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  setFaultActivity,
  addDelayFaultActivity,
  addAbortFaultActivity,
  unsetFaultActivity,
  removeDelayFaultActivity,
  removeAbortFaultActivity,
  getVirtualServiceActivity,
];
