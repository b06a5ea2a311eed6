import { activitiesIn } from '@chaoskit/core';
import * as exported from './activities.js';

export * from './activities.js';

export type { CustomObject } from './body.js';
export { type CustomObjectList, FIELD_MANAGER, type ObjectList, type Status } from './custom-objects.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities = activitiesIn(exported);
