// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './allow-dns-access.js';
export * from './create-network-policy.js';
export * from './deny-all-egress.js';
export * from './deny-all-ingress.js';
export * from './remove-allow-dns-access.js';
export * from './remove-deny-all-egress.js';
export * from './remove-deny-all-ingress.js';
export * from './remove-network-policy.js';
