// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './create-custom-object.js';
export * from './delete-custom-object.js';
export * from './get-custom-object.js';
export * from './list-custom-objects.js';
export * from './patch-custom-object.js';
export * from './replace-custom-object.js';
