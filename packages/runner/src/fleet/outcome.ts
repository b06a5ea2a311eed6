// What a fleet run says about itself: each context's outcome, why one stops the waves after
// it, the aggregate journal (what ran where, each outcome, which wave stopped and why) and its
// summary lines. Contexts are named by their labels only (D114).

import { RUNNER_VERSION } from '../package/version.js';
import { EXIT, worst } from '../run/exit-codes.js';
import type { Journal } from '../run/index.js';
import { iso } from '../run/journal.js';

/** One context's part in the run. */
export interface ContextResult {
  /** `context 2`: its place in the run (its name is never shown). */
  readonly label: string;
  /** Its wave, from 1. */
  readonly wave: number;
  /** `ran` (its journal says how), `refused` before any change, or `not-run`. */
  status: 'ran' | 'refused' | 'not-run';
  journal?: Journal;
  runId?: string;
  /** Its exit code as `chaoskit run` would exit for it alone (D89); none when it did not run. */
  exitCode?: number;
  /** Why it stops the waves after it (a deviation, a failure, a refusal), or why it did not run. */
  reason?: string;
  /** Its outcome stops every context not started yet. */
  stopsWaves: boolean;
}

/** The aggregate journal: what ran where and how, and which wave stopped the others and why. */
export interface FleetJournal {
  'chaoskit-version': string;
  /** The experiment's title. */
  title: string;
  start: string;
  end: string;
  waves: Array<{ wave: number; contexts: string[]; status: 'completed' | 'stopped' | 'not-run' }>;
  contexts: Array<{
    label: string;
    wave: number;
    status: ContextResult['status'];
    run_status?: Journal['status'];
    deviated?: boolean;
    run_id?: string;
    exit_code?: number;
    journal_path?: string;
    reason?: string;
  }>;
  /** The wave whose outcome stopped the waves after it, the context and why. */
  stopped?: { wave: number; context: string; reason: string };
  /** What `chaoskit run` exits with for the fleet (D115). */
  exit_code: number;
}

const HYPOTHESIS_NOT_MET = (journal: Journal): string | undefined => {
  const { before, after, during } = journal.steady_states;
  if (before?.steady_state_met === false)
    return 'its steady state was not met before the method (the method did not run)';
  if (during.some((s) => s.steady_state_met === false))
    return 'its steady state was not met during the method';
  if (after?.steady_state_met === false) return 'its steady state was not met after the method (deviated)';
  return undefined;
};

/**
 * Why a run's outcome stops the waves after it, or undefined when it does not: any steady
 * state not met (before the method too, whatever --fail-on-deviation says: a canary must be
 * healthy), or an exit code other than 0.
 */
export function whyStop(journal: Journal, exitCode: number): string | undefined {
  if (exitCode === EXIT.leftInPlace)
    return `a change it made is left in place (chaoskit revert ${journal.run_id ?? '<run-id>'})`;
  if (exitCode === EXIT.sigint || exitCode === EXIT.sigterm) return 'it was interrupted';
  const notMet = HYPOTHESIS_NOT_MET(journal);
  if (notMet) return notMet;
  if (exitCode === EXIT.refused) return 'a safety rail refused its first action';
  if (exitCode !== EXIT.ok)
    return `its run ended ${journal.status ?? 'unfinished'} (an activity failed or the run was aborted)`;
  return undefined;
}

/**
 * The fleet's exit code (D115): the worst of its contexts' by D89's order; a fleet whose waves
 * stopped before every context ran is at least deviated (1), even when the context that
 * stopped them exits 0 alone (a steady state not met before its method).
 */
export function fleetExitCode(results: readonly ContextResult[]): number {
  const codes = results.flatMap((r) => (r.exitCode === undefined ? [] : [r.exitCode]));
  if (results.some((r) => r.status === 'not-run')) codes.push(EXIT.deviated);
  return codes.reduce(worst, EXIT.ok);
}

export function aggregateJournal(
  title: string,
  start: string,
  results: readonly ContextResult[],
  journalPathOf?: (label: string) => string,
): FleetJournal {
  const waveCount = Math.max(0, ...results.map((r) => r.wave));
  const stopper = results.find((r) => r.stopsWaves);
  const waves = Array.from({ length: waveCount }, (_, i) => {
    const members = results.filter((r) => r.wave === i + 1);
    const status: FleetJournal['waves'][number]['status'] = members.every((r) => r.status === 'not-run')
      ? 'not-run'
      : members.some((r) => r.stopsWaves || r.status === 'not-run')
        ? 'stopped'
        : 'completed';
    return { wave: i + 1, contexts: members.map((r) => r.label), status };
  });
  return {
    'chaoskit-version': RUNNER_VERSION,
    title,
    start,
    end: iso(),
    waves,
    contexts: results.map((r) => ({
      label: r.label,
      wave: r.wave,
      status: r.status,
      ...(r.journal ? { run_status: r.journal.status, deviated: r.journal.deviated } : {}),
      ...(r.runId ? { run_id: r.runId } : {}),
      ...(r.exitCode !== undefined ? { exit_code: r.exitCode } : {}),
      ...(r.status === 'ran' && journalPathOf ? { journal_path: journalPathOf(r.label) } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
    })),
    ...(stopper
      ? { stopped: { wave: stopper.wave, context: stopper.label, reason: stopper.reason ?? '' } }
      : {}),
    exit_code: fleetExitCode(results),
  };
}

/** The aggregate in lines, for the end of `chaoskit run --contexts`. */
export function summaryLines(aggregate: FleetJournal): string[] {
  const lines = aggregate.waves.map((wave) => {
    const members = aggregate.contexts.filter((c) => c.wave === wave.wave);
    const each = members.map((c) =>
      c.status === 'ran'
        ? `${c.label} ${c.run_status}${c.deviated ? ', deviated' : ''} (exit ${c.exit_code}, run ${c.run_id})`
        : `${c.label}${c.status === 'not-run' ? ' not run' : ''}: ${c.reason}`,
    );
    return `Wave ${wave.wave} ${wave.status}: ${each.join('; ')}`;
  });
  if (aggregate.stopped && aggregate.stopped.wave < aggregate.waves.length)
    lines.push(
      `Wave ${aggregate.stopped.wave} stopped the waves after it: ${aggregate.stopped.context}: ${aggregate.stopped.reason}`,
    );
  return lines;
}
