// The record of changes: what a run writes before each change, and what `status` and `revert`
// read back and undo.
export {
  type Assessment,
  assess,
  type ObjectState,
  type ObjectStatus,
  type OtherRuns,
  whatOf,
} from './assess.js';
export type { ObjectRef, RemovedPods, RunHeader, TouchedObject } from './entries.js';
export { ClusterLedger, newRunId, type RunInfo, RunLedger } from './ledger.js';
export { identify, resolve } from './locate.js';
export { findMarked, type Marked, uncovered } from './marked.js';
export { MARK_ANNOTATIONS, markOf, UNDO_ANNOTATION, UNDO_MAC_ANNOTATION } from './marks.js';
export {
  EXPIRES_ANNOTATION,
  LEDGER_LABEL,
  RUN_ANNOTATION,
  recordBinding,
  recordName,
  refOf,
  TITLE_ANNOTATION,
  typeOf,
} from './names.js';
export { otherRunsOf } from './others.js';
export { isBuiltInGroup, kindName, privilegedKind } from './privilege.js';
export {
  LedgerKeys,
  parseRecord,
  type RecordProblem,
  type RunRecord,
  readRecord,
  readRecords,
} from './read.js';
export { reservedByOthers } from './reservations.js';
export {
  deleteRecord,
  describeRef,
  type RevertOptions,
  type RevertResult,
  revertRun,
  runStatus,
} from './revert.js';
export { LEDGER_KEY_SECRET, LEDGER_RULES, type LedgerKey, ledgerKey } from './seal.js';
