// @chaoskit/core/runner: what only a runner needs (the `chaoskit` command, and tools like it):
// the record of changes, `status` and `revert`; the transport below the client and its
// middleware; credentials and the rights they hold; the rails' defaults; the registry of
// installed activities; configuration, secrets and what output must not show. Activity
// packages use `@chaoskit/core` (index.ts).

export {
  contextCount,
  createClusterClient,
  DEFAULT_SERVICE_ACCOUNT_DIR,
  kubeconfigFiles,
  maskEnvironmentTargets,
} from './auth/cluster-client.js';
export { loadKubeconfig } from './auth/kubeconfig.js';
// Through a client, whose transport only core reaches: who it is, the rights it lacks, an Event
export { missingRights, postEvent, whoAmI } from './client/road.js';
// Configuration, secrets, documents, and what output must not show
export { resolveConfiguration } from './config/configuration.js';
export { MAX_DOCUMENT_BYTES } from './config/document-file.js';
export { type ResolvedSecrets, resolveSecrets, secretsFor } from './config/secrets.js';
export { findUndefinedReferences, renderForSubstitution, substitute } from './config/substitute.js';
// The installed activities
export { isActivity } from './definition/activity.js';
export { isAlias } from './definition/alias.js';
export { canonicalModule, originalModule, registry, spelledAs } from './definition/registry.js';
// Words for people: did-you-mean
export { nearMiss, suggest } from './definition/suggest.js';
export { unmaskedMessage } from './errors/errors.js';
export { redact, redactValue, registerSecret, registerTarget } from './errors/redact.js';
// The Events chaoskit posts: on the objects a run changes (D134), and on a run's Job
export { EVENT_RULES } from './events/event.js';
export { RunNotes } from './events/notes.js';
// The rails' defaults
export { SYSTEM_NAMESPACES } from './rails/safety.js';
// The record of changes, and its revert
export type { ObjectStatus } from './record/assess.js';
export type { RunPod, TouchedObject } from './record/entries.js';
export { RunLedger } from './record/ledger.js';
export { findMarked, type Marked, uncovered } from './record/marked-objects.js';
export { deploymentRecordName, LEDGER_LABEL, recordBinding, recordName } from './record/names.js';
export { otherRunsOf } from './record/other-runs.js';
export { undoRules } from './record/privilege.js';
export {
  type ConfigMapObject,
  claimedRun,
  parseRecord,
  type RecordProblem,
  type RunRecord,
  readRecord,
  readRecords,
} from './record/read.js';
export { shareLockName } from './record/reservations.js';
export { deleteRecord, describeRef, type RevertResult, revertRun, runStatus } from './record/revert.js';
export { newRunId } from './record/run-record.js';
export {
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
export { actingAs, serviceAccountOf, type Writer } from './record/writer.js';
// Traces and metrics (D130): the run's spans and meters, a no-op without an SDK
export { asReverting, instruments } from './telemetry/telemetry.js';
// Credentials, and the rights they hold
export { describeRight, type Identity, identityOf, type Right, rightsOf } from './transport/access.js';
// The road below the client: connections, and the transport the record and revert use
export { Connection, closeConnections, connectionFor } from './transport/connection.js';
export { onConnectionNotice } from './transport/notices.js';
export { Transport } from './transport/transport.js';
