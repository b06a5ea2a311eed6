import { activitiesIn } from '@chaoskit/core';
import * as exported from './activities.js';

export * from './activities.js';

import { createClusterCustomObjectActivity, createCustomObjectActivity } from './create-custom-object.js';
import { deleteClusterCustomObjectActivity, deleteCustomObjectActivity } from './delete-custom-object.js';
import { getClusterCustomObjectActivity, getCustomObjectActivity } from './get-custom-object.js';
import { listClusterCustomObjectsActivity, listCustomObjectsActivity } from './list-custom-objects.js';
import { patchClusterCustomObjectActivity, patchCustomObjectActivity } from './patch-custom-object.js';
import { replaceClusterCustomObjectActivity, replaceCustomObjectActivity } from './replace-custom-object.js';

export type { CustomObject } from './body.js';
export { type CustomObjectList, FIELD_MANAGER, type ObjectList, type Status } from './custom-objects.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities = activitiesIn(exported);
