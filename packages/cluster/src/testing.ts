// Test-only helpers (`@chaoskit/cluster/testing`): the shared cluster, namespaces, workloads and
// identities on it, the checks activity packages repeat in their tests, and free ports.

export { freePort } from './host/ports.js';
export * from './testing/activities.js';
export * from './testing/apis.js';
export * from './testing/custom-objects.js';
export * from './testing/etcd.js';
export * from './testing/file-namespace.js';
export * from './testing/files.js';
export * from './testing/identities.js';
export * from './testing/namespaces.js';
export * from './testing/nodes.js';
export * from './testing/processes.js';
export * from './testing/shared-cluster.js';
export * from './testing/until.js';
export * from './testing/workloads.js';
