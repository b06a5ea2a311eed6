// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './create-statefulset.js';
export * from './remove-statefulset.js';
export * from './scale-statefulset.js';
export * from './statefulset-fully-available.js';
export * from './statefulset-not-fully-available.js';
