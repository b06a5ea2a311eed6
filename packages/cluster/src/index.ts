export {
  containerEngineAvailable,
  DEFAULT_K3S_IMAGE,
  K3S_PACKAGES,
  MissingK3sPackages,
  NoContainerEngine,
} from './k3s-provider.js';
export { type AuditEvent, isDryRun, isMutation, readAuditLog } from './local/audit.js';
export {
  binaryPaths,
  cacheDir,
  ETCD_VERSION,
  ensureBinaries,
  KUBERNETES_VERSION,
  KWOK_VERSION,
  missingBinaries,
} from './local/binaries.js';
export { writePodLog } from './local/local-cluster.js';
export { applyCrds, defaultCrdsPath } from './mesh.js';
export { start } from './start.js';
export type * from './types.js';
