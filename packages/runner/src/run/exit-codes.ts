// The exit codes of `chaoskit run` (D89, docs/decisions.md; the table in the runner's README):
// a CI gate tells "chaos injected and undone" from every way a run can go wrong. Chaos
// Toolkit's codes are kept where it has them: 0, 1 for a deviated run, 2 for a usage error.

import type { Journal } from './index.js';

export const EXIT = {
  /** The run completed, its steady state held (or none was declared), nothing it changed is left. */
  ok: 0,
  /** The steady state was not met after the method (and, with --fail-on-deviation, before or during it). */
  deviated: 1,
  /** The command line cannot be parsed: an unknown option, a missing argument. */
  usage: 2,
  /** Refused before the run changed anything: the experiment, a file, the cluster, a right, a rail, a halt. */
  refused: 3,
  /** An activity failed, a hypothesis probe could not run, the run was aborted, or a control, a safeguard or a halt stopped it. */
  failed: 4,
  /** A rollback failed or was not played through, or what the run changed is still in place. */
  leftInPlace: 5,
  /** Interrupted by SIGINT (Ctrl-C) or SIGTERM: 128 + the signal's number. */
  sigint: 130,
  sigterm: 143,
} as const;

/** The table in one line, for `chaoskit run --help`. */
export const EXIT_SUMMARY =
  '0 completed, steady state held, nothing left in place; 1 deviated; 2 usage error; 3 refused before any change; 4 an activity failed or the run aborted; 5 a rollback failed or a change is left in place (chaoskit revert); 130/143 interrupted (SIGINT/SIGTERM). When several apply: 5, then 130/143, 4, 3, 1.';

// When several apply, the first of these wins: what needs someone's action first.
const PRECEDENCE: readonly number[] = [
  EXIT.leftInPlace,
  EXIT.sigint,
  EXIT.sigterm,
  EXIT.failed,
  EXIT.refused,
  EXIT.deviated,
  EXIT.ok,
];

/** Of two exit codes, the one that wins. */
export function worst(a: number, b: number): number {
  return PRECEDENCE.indexOf(a) <= PRECEDENCE.indexOf(b) ? a : b;
}

export interface ExitOptions {
  /** The signal that interrupted the run, if one did. */
  signal?: NodeJS.Signals | undefined;
  /** `--fail-on-deviation`: a steady state not met before or during the method is a deviation too. */
  failOnDeviation?: boolean;
}

const refusedRun = (exception: string[] | undefined) => !!exception?.[0]?.startsWith('Refused:');

/** The exit code of a run that started, from its journal. */
export function runExitCode(journal: Journal, options: ExitOptions = {}): number {
  const codes: number[] = [EXIT.ok];
  const rollbacksLeft = journal.rollbacks.some((r) => r.status !== 'succeeded');
  if (journal.left_in_place?.length || rollbacksLeft) codes.push(EXIT.leftInPlace);
  if (options.signal === 'SIGINT') codes.push(EXIT.sigint);
  else if (options.signal === 'SIGTERM') codes.push(EXIT.sigterm);
  // A rail (or --confirm's "no") that refused the method's first action: nothing was changed.
  const actions = journal.run.filter((r) => r.activity.type === 'action');
  const refusedFirst =
    journal.status === 'aborted' && actions.length > 0 && actions.every((r) => refusedRun(r.exception));
  if (refusedFirst) codes.push(EXIT.refused);
  const { before, after, during } = journal.steady_states;
  const probeFailed = [before, after, ...during].some((s) => s?.probes.some((p) => p.status === 'failed'));
  if (
    probeFailed ||
    (journal.status === 'aborted' && !refusedFirst) ||
    // Stopped by a control, a safeguard or a halt: no signal says so.
    (journal.status === 'interrupted' && !options.signal) ||
    journal.run.some((r) => r.status === 'failed' && !refusedRun(r.exception))
  )
    codes.push(EXIT.failed);
  const deviatedDuring = during.some((s) => s.steady_state_met === false);
  if (
    journal.deviated ||
    // --fail-fast made a deviation during the method fail the run (Chaos Toolkit's exit 1).
    (journal.status === 'failed' && deviatedDuring) ||
    (options.failOnDeviation && (before?.steady_state_met === false || deviatedDuring))
  )
    codes.push(EXIT.deviated);
  return codes.reduce(worst);
}
