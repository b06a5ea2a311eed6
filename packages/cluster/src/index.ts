export { type CustomResourceType, customResourceDefinition } from './custom-resource.js';
export { execText } from './exec.js';
export {
  type Build,
  binaryPaths,
  ETCD_VERSION,
  ensureBenchReference,
  ensureBinaries,
  ensureBuilds,
  ensureIstiod,
  ensureMeshProbe,
  ensureRegistry,
  ISTIO_VERSION,
  istiodMissing,
  KUBERNETES_VERSION,
  KWOK_VERSION,
  missingBinaries,
  REGISTRY_VERSION,
} from './host/binaries.js';
export { cacheDir, withCacheLock } from './host/cache.js';
export { applyCrds, ensureIstioCrds, ISTIO_API_VERSION, meshCrds } from './istio/crds.js';
export { xdsBootstrap } from './istio/istiod.js';
export {
  containerEngineAvailable,
  DEFAULT_K3S_IMAGE,
  K3S_PACKAGES,
  MissingK3sPackages,
  NoContainerEngine,
} from './k3s-provider.js';
export { type AuditEvent, auditLogSize, isDryRun, isMutation, readAuditLog } from './local/audit.js';
export { writePodLog } from './local/local-cluster.js';
export { PreflightError } from './local/preflight.js';
export { REAL_NODE_LABEL } from './local/realnodes/plan.js';
export { REAL_NODE_PACKAGES, realNodeProblems } from './local/realnodes/preflight.js';
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
  xdsUnreachable,
} from './mesh-traffic.js';
export { PROVIDER_NAMES } from './provider-names.js';
export { start } from './start.js';
export type * from './types.js';
