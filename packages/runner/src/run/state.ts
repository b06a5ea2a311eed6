// What the phases of a run share: the experiment prepared, the choices made for the run, its
// journal, its signal and rails, and where it says what happens.

import type { Safety, SafetyRefusal } from '@chaoskit/core';
import { type RunLedger, type RunNotes, redact } from '@chaoskit/core/runner';
import { ControlInterrupted } from '../controls/controls.js';
import type { Activity } from '../experiment/format.js';
import type { Referable } from '../experiment/refs.js';
import type { Prepared } from '../prepare/prepare.js';
import type { Emit, RunListener } from './events.js';
import type { DryMode, HypothesisStrategy, Interruption, Journal, RollbackStrategy } from './journal.js';

export interface RunOptions {
  rollbackStrategy?: RollbackStrategy;
  hypothesisStrategy?: HypothesisStrategy;
  /** Seconds between hypothesis runs during the method (continuously, during-method-only). */
  hypothesisFrequency?: number;
  /**
   * Who hears what happens (events.ts), in this order: the log, the journal writer, `--json`…
   * The experiment's controls hear it after them.
   */
  listeners?: readonly RunListener[];
  /**
   * Interruption (Ctrl-C, SIGTERM): the activity under way stops at its next safe point, no
   * other hypothesis or method activity starts, and the rollbacks run (under every strategy
   * but `never`), with their own signal.
   */
  signal?: AbortSignal;
  /** Abandons the rollbacks (a second, confirmed interruption): those not run are `skipped`. */
  rollbackSignal?: AbortSignal;
  /** The run's record in the cluster: every change is written to it before it is made. */
  ledger?: RunLedger;
  /**
   * The run's Events on the objects it changes (D134): posted beside the run, waited for (a
   * while) before it ends.
   */
  notes?: RunNotes;
  /**
   * The environment the activities' cluster is chosen from (`CLUSTER_CONTEXT`, `KUBECONFIG`),
   * their process providers' too: a fleet run's context (runFleet). Default: the process's.
   */
  env?: NodeJS.ProcessEnv;
  /** `run --confirm`: asked once, before the run's first change, with what it is. */
  confirm?: (firstChange: string) => Promise<boolean>;
  /** `run --dry`: the activities not run (their output is null, their status succeeded). */
  dry?: DryMode;
  /**
   * `run --fail-fast` (D84): the first during-method hypothesis not met (Chaos Toolkit's
   * meaning, under during-method-only and continuously), or the first method activity that
   * fails, fails the run: no further method activity starts.
   */
  failFast?: boolean;
  /**
   * What watches the run from outside its steps and may interrupt it: the halt lever (D128).
   * The experiment's safeguards (D127) are added by the run itself.
   */
  guards?: readonly RunGuard[];
}

/**
 * Watches a run from outside its steps (guards.ts). `start` is called when the run starts, before
 * the hypothesis: the run waits for it (a safeguard's probes that check before the experiment);
 * `interrupt` stops the run at its next safe point, and its rollbacks play. `stop` is called
 * when the rollbacks start: from then on there is nothing left to stop.
 */
export interface RunGuard {
  start(interrupt: (interruption: Interruption) => void): Promise<void> | void;
  stop(): void;
}

export interface RunState {
  readonly prepared: Prepared;
  readonly options: RunOptions;
  readonly journal: Journal;
  readonly emit: Emit;
  /** Aborted by an interruption: the user's, or a control's. */
  readonly signal: AbortSignal;
  /** Aborted by a control's InterruptExecution or a guard (which say so themselves). */
  readonly interruptedByControl: AbortSignal;
  /** One object for the whole run: the confirmation is asked once. */
  readonly safety: Safety;
  /** What the steps' references name. */
  readonly refs: Referable;
  /** A safety rail's confirmation was refused: the run changed nothing, there is nothing to roll back. */
  unconfirmed: boolean;
}

/** The run was interrupted: what was under way stopped at its next safe point. */
export class Interrupted extends Error {}

/** A safety rail refused a method activity: the method stops there. */
export class Refused extends Error {
  constructor(readonly refusal: SafetyRefusal) {
    super(refusal.message);
  }
}

export function checkInterrupt(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Interrupted('interrupted');
}

/** Whether `--dry` leaves the activity out. */
export function isDry(dry: DryMode | undefined, activity: Activity): boolean {
  return (
    dry === 'activities' ||
    (dry === 'actions' && activity.type === 'action') ||
    (dry === 'probes' && activity.type === 'probe')
  );
}

/**
 * What ends the hypothesis and the method for good: an interruption, a rail's refusal (the
 * method stops there), or an error nothing expected (the run is aborted).
 */
export async function fatal(state: RunState, err: unknown): Promise<void> {
  const { journal, emit } = state;
  if (err instanceof Interrupted || err instanceof ControlInterrupted) {
    const first = journal.status !== 'interrupted';
    journal.status = 'interrupted';
    if (first && !state.interruptedByControl.aborted) await emit({ type: 'interrupted', by: 'signal' });
  } else if (err instanceof Refused) {
    journal.status = 'aborted';
    state.unconfirmed = err.refusal.rail === 'confirmation';
    await emit({ type: 'aborted', reason: 'refused', message: redact(err.message) });
  } else {
    journal.status = 'aborted';
    await emit({ type: 'aborted', reason: 'error', message: redact((err as Error).message) });
  }
}
