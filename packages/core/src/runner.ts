// @chaoskit/core/runner: what only a runner needs (the `chaoskit` command, and tools like it):
// the record of changes, `status` and `revert`; the transport below the client and its
// middleware; credentials and the rights they hold; the rails' defaults; the registry of
// installed activities; configuration, secrets and what output must not show. Activity
// packages use `@chaoskit/core` (index.ts).

export {
  type ClientOptions,
  type ClusterAuth,
  type ClusterClient,
  type ClusterConfig,
  contextCount,
  createClusterClient,
  DEFAULT_SERVICE_ACCOUNT_DIR,
  kubeconfigFiles,
  maskEnvironmentTargets,
} from './auth/cluster-client.js';
export {
  type ExecConfig,
  type Kubeconfig,
  type KubeconfigCluster,
  type KubeconfigContext,
  type KubeconfigUser,
  loadKubeconfig,
} from './auth/kubeconfig.js';
// Configuration, secrets, documents, and what output must not show
export { resolveConfiguration } from './config/configuration.js';
export {
  MAX_ALIASES,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_VALUES,
} from './config/document-file.js';
export { type Env, type ResolvedSecrets, resolveSecrets, secretsFor } from './config/secrets.js';
export { findUndefinedReferences, renderForSubstitution, substitute } from './config/substitute.js';
// The installed activities
export { isActivity } from './definition/activity.js';
export { isAlias } from './definition/alias.js';
export { ActivityRegistry, canonicalModule, registry, spelledAs } from './definition/registry.js';
// Words for people: did-you-mean
export { nearMiss, suggest } from './definition/suggest.js';
export { unmaskedMessage } from './errors/errors.js';
export { type RedactOptions, redact, redactValue, registerSecret, registerTarget } from './errors/redact.js';
// The Events chaoskit posts: on the objects a run changes (D134), and on a run's Job
export {
  EVENT_RULES,
  type EventNote,
  Events,
  eventBody,
  postEvent,
  REPORTING_COMPONENT,
  type Regarding,
} from './events/event.js';
export {
  ClusterNotes,
  INJECTED,
  NOTES_GRACE_MS,
  REVERTED,
  RunNotes,
  type RunNotesOptions,
} from './events/notes.js';
// The rails' defaults
export { DEFAULT_MAX_POD_SHARE, DEFAULT_SAFETY, SYSTEM_NAMESPACES } from './rails/safety.js';
// The record of changes, and its revert
export {
  type Assessment,
  assess,
  type ObjectState,
  type ObjectStatus,
  type OtherRuns,
  whatOf,
} from './record/assess.js';
export type { ObjectRef, RemovedPods, RunHeader, RunPod, TouchedObject } from './record/entries.js';
export { ClusterLedger, RunLedger } from './record/ledger.js';
export { findMarked, type Marked, uncovered } from './record/marked-objects.js';
export {
  deploymentRecordName,
  EXPIRES_ANNOTATION,
  LEDGER_LABEL,
  recordBinding,
  recordName,
  refOf,
  TITLE_ANNOTATION,
  typeOf,
} from './record/names.js';
export { otherRunsOf } from './record/other-runs.js';
export { isBuiltInGroup, kindName, privilegedKind, undoRules } from './record/privilege.js';
export {
  type ConfigMapObject,
  claimedRun,
  listRecords,
  parseRecord,
  type RecordProblem,
  type RunRecord,
  readRecord,
  readRecords,
} from './record/read.js';
export { reservedByOthers, shareLockName } from './record/reservations.js';
export {
  beyondWriter,
  deleteRecord,
  describeRef,
  type RevertOptions,
  type RevertResult,
  revertRun,
  runStatus,
} from './record/revert.js';
export { MARK_ANNOTATIONS, markOf, UNDO_ANNOTATION, UNDO_MAC_ANNOTATION } from './record/run-marks.js';
export { newRunId, type RunInfo } from './record/run-record.js';
export {
  keyForRun,
  keySecret,
  LEDGER_KEY_SECRET,
  LEDGER_RULES,
  type LedgerKey,
  LedgerKeys,
  ledgerRules,
  noOperatorsKey,
  readLedgerKey,
  runnerKeyName,
} from './record/seal.js';
export { actingAs, impersonationOf, serviceAccountOf, type Writer } from './record/writer.js';
// Traces and metrics (D130): the run's spans and meters, a no-op without an SDK
export { asReverting, instruments, isReverting } from './telemetry/telemetry.js';
// Credentials, and the rights they hold
export {
  describeRight,
  type Identity,
  identityOf,
  missingRights,
  type Right,
  rightsOf,
  whoAmI,
} from './transport/access.js';
// The road below the client: connections, and the transport the record and revert use
export {
  Connection,
  closeConnections,
  connectionFor,
  FIRST_CONTACT_MS,
  MAX_CONNECTIONS,
} from './transport/connection.js';
export { onConnectionNotice } from './transport/notices.js';
export { RUN_ANNOTATION } from './transport/ops.js';
export type { HttpMethod, RawResponse, RequestOptions } from './transport/request.js';
export {
  type RequestEvent,
  type ResponseEvent,
  Transport,
  type TransportMiddleware,
  type TransportOptions,
} from './transport/transport.js';
