export { containerEngineAvailable, DEFAULT_K3S_IMAGE, NoContainerEngine } from './k3s-provider.js';
export { type AuditEvent, isDryRun, isMutation, readAuditLog } from './local/audit.js';
export {
  binaryPaths,
  cacheDir,
  ETCD_VERSION,
  ensureBinaries,
  ensureIstiod,
  ensureMeshProbe,
  ISTIO_API_VERSION,
  ISTIO_VERSION,
  KUBERNETES_VERSION,
  KWOK_VERSION,
  missingBinaries,
} from './local/binaries.js';
export { istioApiCrdsPath, xdsBootstrap } from './local/istiod.js';
export { writePodLog } from './local/local-cluster.js';
export { applyCrds, defaultCrdsPath } from './mesh.js';
export {
  IDENTITY_HEADER,
  type MeshTraffic,
  type MeshTrafficBackend,
  type MeshTrafficHost,
  type MeshTrafficOptions,
  type MeshTrafficRoute,
  meshTraffic,
  type RouteStats,
  type SendOptions,
  type WaitOptions,
} from './mesh-traffic.js';
export { start } from './start.js';
export type * from './types.js';
