// @chaoskit/core, as an activity package uses it: defining activities, their arguments and
// selections, reaching the cluster (reads, and every write through one chain), waiting, input
// files, errors. What only the runner needs — the record of changes and its revert, credentials,
// the transport below the client, configuration, secrets, the registry — is
// `@chaoskit/core/runner` (runner.ts).

// One zod for every chaoskit package: argument schemas are built with core's copy.
export { z } from 'zod';
// Arguments, and the selections they make
export * from './arguments/args.js';
export {
  type LabelOperator,
  type LabelRequirement,
  LabelSelectorError,
  matchesLabels,
  parseLabelSelector,
} from './arguments/label-selector.js';
export { isKubernetesName, kubernetesName, NAME_RULES, type NameRule } from './arguments/names.js';
export { SINCE_ACCEPTED, sinceSeconds } from './arguments/parse-since.js';
export { isValidSeed, MAX_SEED, makeRandom, type Random } from './arguments/random.js';
export { compileRegex, type Regex, regexProblem } from './arguments/regex.js';
export * from './arguments/select-nodes.js';
export * from './arguments/select-pods.js';
// The cluster: reads, and the one chain every write goes through
export type { Batch } from './client/batch.js';
export {
  type BulkOptions,
  type BulkWords,
  bulk,
  DEFAULT_CONCURRENCY,
  deleteAll,
  lookAfterAbort,
  mapLimit,
  objectName,
  removedAfterAbort,
} from './client/bulk.js';
export { KubeClient, type KubeClientOptions, kubeClient, type WriteOptions } from './client/kube-client.js';
export type { ExecOutcome, ExecTarget, PodExec } from './client/pod-exec.js';
// Input files
export {
  DocumentFileError,
  type DocumentFormat,
  documentFormat,
  parseDocument,
  readDocumentFile,
} from './config/document-file.js';
export * from './config/manifest-file.js';
// Defining an activity
export {
  type Activity,
  type ActivityDefinition,
  type ActivityFn,
  type ActivityOptions,
  type AnyActivity,
  type ArgsInput,
  type ArgsOutput,
  type ArgsSchema,
  type ArgsShape,
  type ArgumentInfo,
  type ArgumentProblem,
  activitiesIn,
  type CamelCase,
  type CamelKeys,
  type JsonSchema,
  type ResultOf,
} from './definition/activity.js';
export type {
  ActivityContext,
  ActivityIdentity,
  ActivityKind,
  CallOptions,
  RunCallOptions,
} from './definition/activity-context.js';
export { type ActivityAlias, aliasActivity } from './definition/alias.js';
export { defineActivity } from './definition/define-activity.js';
export { accepting, describeSchema } from './definition/describe-schema.js';
// Errors
export {
  Aborted,
  type AbortProgress,
  ActivityFailed,
  ApiError,
  type ApiErrorCode,
  type ApiRequestContext,
  ChaosError,
  ConfigurationError,
  type ErrorCode,
  InvalidArgument,
  type InvalidArgumentDetails,
  isApiError,
  isChaosError,
  NetworkError,
  toApiError,
} from './errors/errors.js';
// The rails an activity checks itself (the write chain applies the others)
export { checkPodRemoval, type PodRemovalOptions } from './rails/pod-share.js';
export { type Rail, Safety, type SafetyOptions, SafetyRefusal } from './rails/safety.js';
export type { RbacRule } from './transport/access.js';
export type { CountOptions, ListOptions, Page } from './transport/lists.js';
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
} from './transport/ops.js';
export type { Query } from './transport/request.js';
export {
  apiGroupOf,
  ConfigMaps,
  CustomResourceDefinitions,
  collectionPath,
  customResource,
  Deployments,
  Namespaces,
  NetworkPolicies,
  Nodes,
  objectPath,
  Pods,
  ReplicaSets,
  type ResourceType,
  Secrets,
  Services,
  StatefulSets,
} from './transport/resources.js';
export type { WatchEvent, WatchOptions } from './transport/watch.js';
export * from './transport/watch-until.js';
// Waiting
export * from './waiting/waiting.js';
// Shared activities of workloads (deployments, stateful sets)
export * from './workloads/replica-wait.js';
export { scaleAction } from './workloads/scale.js';
