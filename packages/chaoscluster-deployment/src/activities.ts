// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './create-deployment.js';
export * from './delete-deployment.js';
export * from './deployment-available-and-healthy.js';
export * from './deployment-fully-available.js';
export * from './deployment-not-fully-available.js';
export * from './scale-deployment.js';
