// One zod for every chaoskit package: argument schemas are built with core's copy.
export { z } from 'zod';
export * from './arguments/args.js';
export * from './arguments/label-selector.js';
export * from './arguments/names.js';
export * from './arguments/parse-since.js';
export * from './arguments/random.js';
export * from './arguments/regex.js';
export * from './arguments/select-nodes.js';
export * from './arguments/select-pods.js';
export * from './auth/access.js';
export * from './auth/cluster-client.js';
export * from './auth/kubeconfig.js';
export { type Batch, checkPodRemoval, type PodRemovalOptions } from './cluster/batch.js';
export * from './cluster/bulk.js';
export {
  Connection,
  closeConnections,
  connectionFor,
  MAX_CONNECTIONS,
  type Query,
  type RawResponse,
  type RequestOptions,
} from './cluster/connection.js';
export * from './cluster/kube-client.js';
export { type CountOptions, LIST_RESTARTS, type ListOptions, type Page } from './cluster/lists.js';
export type {
  CreateOp,
  DeleteOp,
  EvictOp,
  PatchOp,
  PatchType,
  RemovalOp,
  ReplaceOp,
  SubresourceOp,
  WriteOp,
} from './cluster/ops.js';
export * from './cluster/resources.js';
export { backoffMs, isRetryable, RETRY_BUDGET_MS } from './cluster/retry.js';
export {
  type RequestEvent,
  type ResponseEvent,
  Transport,
  type TransportMiddleware,
  type TransportOptions,
} from './cluster/transport.js';
export type { WatchEvent, WatchOptions } from './cluster/watch.js';
export * from './config/configuration.js';
export * from './config/document-file.js';
export * from './config/manifest-file.js';
export * from './config/secrets.js';
export * from './config/substitute.js';
export * from './definition/activity-context.js';
export * from './definition/alias.js';
export * from './definition/define-activity.js';
export { accepting, describeSchema } from './definition/describe-schema.js';
export * from './definition/registry.js';
export { renderValue } from './definition/render-value.js';
export { nearMiss, suggest } from './definition/suggest.js';
export * from './errors/errors.js';
export { redact, redactValue, registerSecret, registerTarget } from './errors/redact.js';
export * from './rails/safety.js';
export * from './record/index.js';
export {
  annotationPointer,
  diffPointers,
  patchPointers,
  same,
  sameField,
  valueAt,
} from './record/pointers.js';
export * from './waiting/waiting.js';
export * from './waiting/watch-until.js';
export * from './workloads/replica-wait.js';
export * from './workloads/scale.js';
