// The run loop (run-experiment.ts) and what its users take from it: the journal, the events its
// listeners hear and the listeners the command gives it, and the one way an activity is called.

export type { HypothesisWhen, Phase, RunEvent, RunEventType, RunListener } from './events.js';
export { type Invocation, invokeActivity } from './invoke.js';
export {
  type ActivityRun,
  DRY_MODES,
  type DryMode,
  HYPOTHESIS_STRATEGIES,
  type HypothesisState,
  type HypothesisStrategy,
  type Journal,
  ROLLBACK_STRATEGIES,
  type RollbackStrategy,
  type Status,
} from './journal.js';
export { type JournalWriter, journalWriter } from './journal-writer.js';
export { jsonOutput } from './json-output.js';
export { logEvents } from './log-events.js';
export { runExperiment } from './run-experiment.js';
export type { RunOptions } from './state.js';
