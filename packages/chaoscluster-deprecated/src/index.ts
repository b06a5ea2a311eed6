import { activitiesIn } from '@chaoskit/core';
import * as exported from './activities.js';

export * from './activities.js';
export { aliases } from './aliases.js';
export { deprecationMessage, resetDeprecationWarnings } from './deprecation.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities = activitiesIn(exported);
