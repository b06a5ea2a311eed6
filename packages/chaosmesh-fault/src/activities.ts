// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './add-abort-fault.js';
export * from './add-delay-fault.js';
export * from './get-virtual-service.js';
export * from './remove-abort-fault.js';
export * from './remove-delay-fault.js';
export * from './set-fault.js';
export * from './unset-fault.js';
