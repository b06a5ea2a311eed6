// One zod for every chaoskit package: argument schemas are built with core's copy.
export { z } from 'zod';
export * from './access.js';
export * from './activity-context.js';
export * from './alias.js';
export * from './api.js';
export * from './args.js';
export * from './bulk.js';
export { type Batch, checkPodRemoval, type PodRemovalOptions } from './cluster/batch.js';
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
export {
  type RequestEvent,
  type ResponseEvent,
  Transport,
  type TransportMiddleware,
  type TransportOptions,
} from './cluster/transport.js';
export type { WatchEvent, WatchOptions } from './cluster/watch.js';
export * from './cluster-client.js';
export * from './configuration.js';
export {
  Connection,
  closeConnections,
  connectionFor,
  MAX_CONNECTIONS,
  type Query,
  type RawResponse,
  type RequestOptions,
} from './connection.js';
export * from './define-activity.js';
export { accepting, describeSchema } from './describe-schema.js';
export * from './document-file.js';
export * from './errors.js';
export * from './kubeconfig.js';
export * from './label-selector.js';
export * from './manifest-file.js';
export * from './names.js';
export * from './parse-since.js';
export { annotationPointer, diffPointers, patchPointers, same, sameField, valueAt } from './pointers.js';
export * from './random.js';
export * from './record/index.js';
export { redact, redactValue, registerSecret, registerTarget } from './redact.js';
export * from './regex.js';
export * from './registry.js';
export { renderValue } from './render-value.js';
export * from './replica-wait.js';
export * from './resources.js';
export { backoffMs, isRetryable, RETRY_BUDGET_MS } from './retry.js';
export * from './safety.js';
export * from './scale.js';
export * from './secrets.js';
export * from './select-nodes.js';
export * from './select-pods.js';
export * from './substitute.js';
export { nearMiss, suggest } from './suggest.js';
export * from './waiting.js';
