import { activitiesIn } from '@chaoskit/core';
import * as exported from './activities.js';

export * from './activities.js';
export { aliases } from './aliases.js';
export { DEFAULT_VERSION, type MeshVersion, VERSIONS } from './args.js';
export { parseGoDuration } from './duration.js';
export type { AbortFault, DelayFault, Fault, HttpRoute, Percent, RouteSelector } from './routes.js';
export type { VirtualService } from './virtual-service.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities = activitiesIn(exported);
