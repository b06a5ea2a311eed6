import type { AnyActivity } from '@chaoskit/core';
import { createClusterCustomObjectActivity, createCustomObjectActivity } from './create-custom-object.js';
import { deleteClusterCustomObjectActivity, deleteCustomObjectActivity } from './delete-custom-object.js';
import { getClusterCustomObjectActivity, getCustomObjectActivity } from './get-custom-object.js';
import { listClusterCustomObjectsActivity, listCustomObjectsActivity } from './list-custom-objects.js';
import { patchClusterCustomObjectActivity, patchCustomObjectActivity } from './patch-custom-object.js';
import { replaceClusterCustomObjectActivity, replaceCustomObjectActivity } from './replace-custom-object.js';

export type { CustomObject } from './body.js';
export * from './create-custom-object.js';
export { FIELD_MANAGER, type ObjectList } from './custom-objects.js';
export * from './delete-custom-object.js';
export * from './get-custom-object.js';
export * from './list-custom-objects.js';
export * from './patch-custom-object.js';
export * from './replace-custom-object.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  createCustomObjectActivity,
  createClusterCustomObjectActivity,
  deleteCustomObjectActivity,
  deleteClusterCustomObjectActivity,
  patchCustomObjectActivity,
  patchClusterCustomObjectActivity,
  replaceCustomObjectActivity,
  replaceClusterCustomObjectActivity,
  getCustomObjectActivity,
  getClusterCustomObjectActivity,
  listCustomObjectsActivity,
  listClusterCustomObjectsActivity,
];
