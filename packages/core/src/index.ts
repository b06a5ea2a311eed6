// One zod for every chaoskit package: argument schemas are built with core's copy.
export { z } from 'zod';
export * from './access.js';
export * from './activity-context.js';
export * from './alias.js';
export * from './api.js';
export * from './args.js';
export * from './bulk.js';
export type { ApiConstructor } from './client-node.js';
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
export * from './kube.js';
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
