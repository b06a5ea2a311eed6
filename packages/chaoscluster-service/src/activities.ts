// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './create-service-endpoint.js';
export * from './delete-service.js';
export * from './service-is-initialized.js';
