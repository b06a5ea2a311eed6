// What a run says as it goes: typed events, in the order things happen. The loop reports
// nothing itself; its listeners do — the human log (log-events.ts), the journal writer
// (journal-writer.ts), `--json` (json-output.ts) and the experiment's controls
// (control-events.ts) — as chaostoolkit-lib's RunEventHandler and its controls see a run.

import type { Activity, Hypothesis, Step } from '../experiment/format.js';
import type {
  ActivityRun,
  DryMode,
  HypothesisState,
  Interruption,
  Journal,
  RollbackStrategy,
  Status,
} from './journal.js';

/** Where an activity runs. */
export type Phase = 'hypothesis' | 'method' | 'rollbacks';
/** When the steady-state hypothesis is checked. */
export type HypothesisWhen = 'before' | 'during' | 'after';

export type RunEvent =
  /**
   * The run begins: its title substituted; `hypothesis`: whether it has probes to check;
   * `journal`: the run's journal, which grows as the run goes.
   */
  | { type: 'run-started'; title: string; journal: Journal; hypothesis: boolean; dry?: DryMode }
  | { type: 'phase-started'; phase: 'hypothesis'; when: HypothesisWhen; hypothesis: Hypothesis }
  /** `afterInterruption`: the rollbacks play because the run was interrupted (D70). */
  | { type: 'phase-started'; phase: 'method' | 'rollbacks'; afterInterruption?: boolean }
  /**
   * The hypothesis checked; `unmet`, when it was not: the probe that stopped it, whether it
   * failed (rather than returned a value out of tolerance), and `why` its value was out of
   * tolerance when there is more to say (a jsonpath filter that tested a list as a whole).
   */
  | {
      type: 'phase-ended';
      phase: 'hypothesis';
      when: HypothesisWhen;
      hypothesis: Hypothesis;
      state: HypothesisState;
      unmet?: { probe: string; failed: boolean; why?: string };
    }
  | { type: 'phase-ended'; phase: 'method' | 'rollbacks'; runs: ActivityRun[] }
  /**
   * A step's turn begins (its pauses are part of it). `activity` is what it runs: undefined when
   * its `ref` names nothing, and the turn fails.
   */
  | { type: 'activity-started'; phase: Phase; step: Step; activity: Activity | undefined }
  /** `--dry` leaves out the activity's pauses. */
  | { type: 'pauses-skipped'; activity: Activity; dry: DryMode }
  | { type: 'activity-paused'; activity: Activity; when: 'before' | 'after'; seconds: number }
  /** The provider is called now (not under `dry`, which says why). */
  | { type: 'activity-called'; phase: Phase; activity: Activity; background: boolean; dry?: DryMode }
  /** A line the activity logged (redacted). */
  | { type: 'activity-logged'; activity: Activity; line: string }
  /** The activity's result, as its journal entry has it. */
  | { type: 'activity-returned'; phase: Phase; run: ActivityRun; background: boolean; dry?: DryMode }
  /** The step's turn is over, its pause after included; `run` is null when it never ran. */
  | { type: 'activity-ended'; phase: Phase; activity: Activity; run: ActivityRun | null }
  | { type: 'background-waiting'; count: number }
  /** `--fail-fast` stops the method: after a failed activity (named), or a deviation during it. */
  | { type: 'fail-fast'; activity?: string }
  /** The hypothesis after the method was not met. */
  | { type: 'deviated' }
  /** The run stops: a signal, or a control (`control`, with its message). */
  | { type: 'interrupted'; by: 'signal' }
  | { type: 'interrupted'; by: 'control'; control: string; message: string }
  /** A guard stops the run (guards.ts): a safeguard probe out of tolerance, or the halt lever. */
  | { type: 'interrupted'; by: 'guard'; interruption: Interruption }
  /** The method stops for good: a safety rail refused an action, or an unexpected error. */
  | { type: 'aborted'; reason: 'refused' | 'error'; message: string }
  /** The rollbacks do not play: none declared, the strategy, or a run not confirmed (it changed nothing). */
  | {
      type: 'rollbacks-skipped';
      reason: 'none-declared' | 'strategy' | 'unconfirmed';
      strategy: RollbackStrategy;
      status: Status;
    }
  /** The user abandoned the rollbacks: these were not played. */
  | { type: 'rollbacks-abandoned'; left: Step[] }
  /** What the run changed that its rollbacks did not undo (`chaoskit revert runId` does). */
  | { type: 'left-in-place'; changes: string[]; runId: string }
  | { type: 'left-in-place-unchecked'; message: string }
  | { type: 'control-logged'; control: string; line: string }
  | { type: 'control-failed'; control: string; hook: string; message: string }
  /**
   * The journal was written (`final`: at the end of the run), or could not be: to its file, or
   * to its copy in the cluster (`run --journal-to-cluster`).
   */
  | { type: 'journal-written'; text: string; final: boolean; to: JournalPlace }
  | { type: 'journal-failed'; message: string; to: JournalPlace }
  /** An Event on the run's Job (`run --journal-to-cluster` in a deployed pod) could not be written. */
  | { type: 'job-event-failed'; reason: string; message: string }
  /** The run is over: its journal complete (the last `journal-written` follows). */
  | { type: 'run-ended'; journal: Journal };

export type RunEventType = RunEvent['type'];

/** Where a journal is written: its file, or the cluster. */
export type JournalPlace = 'file' | 'cluster';

/** Sends an event to every listener, in order, each awaited. */
export type Emit = (event: RunEvent) => Promise<void>;

/**
 * Receives every event of a run. A listener may say more (`emit`: the journal writer says where
 * the journal went); what it throws stops the run where the event was said (a control's
 * InterruptExecution), so a listener that only reports keeps its errors to itself.
 */
export type RunListener = (event: RunEvent, emit: Emit) => unknown;

/** The run's emitter: its listeners, called in the order given. */
export function emitter(listeners: readonly RunListener[]): Emit {
  const emit: Emit = async (event) => {
    for (const listener of listeners) await listener(event, emit);
  };
  return emit;
}
