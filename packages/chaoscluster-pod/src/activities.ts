// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './all-pods-healthy.js';
export * from './count-pods.js';
export * from './delete-pods.js';
export * from './exec-in-pods.js';
export * from './pod-is-not-available.js';
export * from './pods-in-conditions.js';
export * from './pods-in-phase.js';
export * from './pods-not-in-phase.js';
export * from './read-pod-logs.js';
export * from './terminate-pods.js';
