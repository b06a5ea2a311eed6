// The run loop (run-experiment.ts) and what it is made of: the journal, the events its
// listeners hear, and the one way an activity is called.

export { controlEvents } from './control-events.js';
export {
  type Emit,
  emitter,
  type HypothesisWhen,
  type Phase,
  type RunEvent,
  type RunEventType,
  type RunListener,
} from './events.js';
export { argumentsOf, callProvider, type Invocation, invokeActivity } from './invoke.js';
export {
  type ActivityRun,
  DRY_MODES,
  type DryMode,
  type HypothesisState,
  type HypothesisStrategy,
  type Journal,
  type RollbackStrategy,
  type Status,
} from './journal.js';
export { type JournalWriter, journalText, journalWriter } from './journal-writer.js';
export { jsonOutput } from './json-output.js';
export { logEvents } from './log-events.js';
export { type Referable, referable, resolveStep } from './refs.js';
export { runExperiment } from './run-experiment.js';
export type { RunOptions } from './state.js';
