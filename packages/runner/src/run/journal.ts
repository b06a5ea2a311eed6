// A run's journal, in Chaos Toolkit's format (D95), and the choices that shape the run.

import { hostname, platform, release } from 'node:os';
import type { Step } from '../experiment/format.js';
import { CHAOSLIB_VERSION, RUNNER_VERSION } from '../package/version.js';
import type { Json } from '../prepare/prepare.js';

export const ROLLBACK_STRATEGIES = ['default', 'always', 'never', 'deviated'] as const;
export type RollbackStrategy = (typeof ROLLBACK_STRATEGIES)[number];
export const HYPOTHESIS_STRATEGIES = [
  'default',
  'before-method-only',
  'after-method-only',
  'during-method-only',
  'continuously',
] as const;
export type HypothesisStrategy = (typeof HYPOTHESIS_STRATEGIES)[number];
export type Status = 'completed' | 'failed' | 'aborted' | 'interrupted';
/** Chaos Toolkit's `--dry`: which activities are not run (and whose pauses are skipped); `pause`: only the pauses. */
export type DryMode = 'probes' | 'actions' | 'activities' | 'pause';
export const DRY_MODES: readonly DryMode[] = ['probes', 'actions', 'activities', 'pause'];

export interface ActivityRun {
  /** The activity run (what a reference named); the step as declared when it was not run. */
  activity: Step;
  output: unknown;
  start: string;
  /** `skipped`: a rollback not run because the user abandoned the rollbacks. */
  status: 'succeeded' | 'failed' | 'skipped';
  exception?: string[];
  end: string;
  duration: number;
  /** What the activity logged while it ran: the targets it touched, a random seed, waits. */
  logs?: string[];
  tolerance_met?: boolean;
}

export interface HypothesisState {
  steady_state_met: boolean | null;
  probes: ActivityRun[];
}

/**
 * What stopped a run from outside its steps (D127): a safeguard probe out of tolerance (its run,
 * as Chaos Toolkit's safeguards keep the one that triggered), or the halt lever (D128).
 */
export interface Interruption {
  by: 'safeguard' | 'halt';
  /** The safeguard probe's name, or the halt object's. */
  name: string;
  reason: string;
  run?: ActivityRun;
}

export interface Journal {
  /** The Chaos Toolkit format emulated (D95); chaoskit's own version is `chaoskit-version`. */
  'chaoslib-version': string;
  'chaoskit-version': string;
  platform: string;
  node: string;
  experiment: Json;
  start: string;
  status: Status | null;
  deviated: boolean;
  steady_states: { before: HypothesisState | null; after: HypothesisState | null; during: HypothesisState[] };
  run: ActivityRun[];
  rollbacks: ActivityRun[];
  end?: string;
  duration?: number;
  /** The run's id: `chaoskit status` and `chaoskit revert <id>` find and undo what it changed. */
  run_id?: string;
  /** What the run changed that was still in place when it ended (its rollbacks did not undo it). */
  left_in_place?: string[];
  /** What interrupted the run, when a guard did (Chaos Toolkit's journal only says `interrupted`). */
  interrupted_by?: Interruption;
}

export const iso = () => new Date().toISOString();

/** The journal of a run starting now: `experiment` as it runs (its title substituted). */
export function newJournal(experiment: Json, runId: string | undefined): Journal {
  return {
    'chaoslib-version': CHAOSLIB_VERSION,
    'chaoskit-version': RUNNER_VERSION,
    platform: `${platform()} ${release()}`,
    node: hostname(),
    experiment,
    start: iso(),
    status: null,
    deviated: false,
    steady_states: { before: null, after: null, during: [] },
    run: [],
    rollbacks: [],
    ...(runId ? { run_id: runId } : {}),
  };
}
