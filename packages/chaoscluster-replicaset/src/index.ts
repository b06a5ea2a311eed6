import { activitiesIn } from '@chaoskit/core';
import * as exported from './activities.js';

export * from './activities.js';
export { deleteReplicaSets, listReplicaSets } from './replica-sets.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities = activitiesIn(exported);
