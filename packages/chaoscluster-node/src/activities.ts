// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './cordon-node.js';
export * from './create-node.js';
export * from './delete-nodes.js';
export * from './drain-nodes.js';
export * from './get-nodes.js';
export * from './uncordon-node.js';
