import { describe, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { newJournal } from '../run/journal.js';
import { aggregateJournal, type ContextResult, fleetExitCode, summaryLines, whyStop } from './outcome.js';

const ran = (label: string, wave: number, exitCode: number, reason?: string): ContextResult => ({
  label,
  wave,
  status: 'ran',
  exitCode,
  stopsWaves: reason !== undefined,
  ...(reason ? { reason } : {}),
});
const notRun = (label: string, wave: number): ContextResult => ({
  label,
  wave,
  status: 'not-run',
  stopsWaves: false,
  reason: 'context 1 (wave 1) stopped the waves: …',
});

describe("a fleet's outcome", () => {
  it('exits with the worst of its contexts in D89’s order, at least 1 when a context did not run (D115)', () => {
    expect(fleetExitCode([ran('context 1', 1, 0), ran('context 2', 2, 0)])).toBe(EXIT.ok);
    expect(fleetExitCode([ran('context 1', 1, 0), ran('context 2', 1, 1)])).toBe(EXIT.deviated);
    expect(fleetExitCode([ran('context 1', 1, 1), ran('context 2', 1, 5), ran('context 3', 1, 4)])).toBe(
      EXIT.leftInPlace,
    );
    expect(fleetExitCode([ran('context 1', 1, 130), ran('context 2', 1, 4)])).toBe(EXIT.sigint);
    // A steady state not met before the method exits 0 alone; the fleet it stopped did not pass.
    expect(
      fleetExitCode([ran('context 1', 1, 0, 'its steady state was not met'), notRun('context 2', 2)]),
    ).toBe(EXIT.deviated);
    expect(
      fleetExitCode([{ ...ran('context 1', 1, 3, 'refused'), status: 'refused' }, notRun('context 2', 2)]),
    ).toBe(EXIT.refused);
  });

  it('stops the waves on any steady state not met, and on any exit code but 0', () => {
    const journal = newJournal({ title: 't' }, 'run-1');
    expect(whyStop(journal, EXIT.ok)).toBeUndefined();
    journal.steady_states.before = { steady_state_met: false, probes: [] };
    expect(whyStop(journal, EXIT.ok)).toBe(
      'its steady state was not met before the method (the method did not run)',
    );
    journal.steady_states.before = { steady_state_met: true, probes: [] };
    journal.steady_states.after = { steady_state_met: false, probes: [] };
    expect(whyStop(journal, EXIT.deviated)).toBe('its steady state was not met after the method (deviated)');
    expect(whyStop(journal, EXIT.leftInPlace)).toBe(
      'a change it made is left in place (chaoskit revert run-1)',
    );
    journal.steady_states.after = null;
    journal.status = 'aborted';
    expect(whyStop(journal, EXIT.failed)).toBe(
      'its run ended aborted (an activity failed or the run was aborted)',
    );
  });

  it('says which wave stopped the others and why, by the contexts’ places', () => {
    const aggregate = aggregateJournal(
      'web',
      '2026-01-01T00:00:00.000Z',
      [
        ran('context 1', 1, 0),
        ran('context 2', 2, 0, 'its steady state was not met'),
        notRun('context 3', 3),
      ],
      (label) => `journal.${label.replace(' ', '-')}.json`,
    );
    expect(aggregate.waves.map((w) => w.status)).toEqual(['completed', 'stopped', 'not-run']);
    expect(aggregate.stopped).toEqual({
      wave: 2,
      context: 'context 2',
      reason: 'its steady state was not met',
    });
    expect(aggregate.contexts[0]!.journal_path).toBe('journal.context-1.json');
    expect(aggregate.contexts[2]!.journal_path).toBeUndefined();
    expect(aggregate.exit_code).toBe(EXIT.deviated);
    expect(summaryLines(aggregate).at(-1)).toBe(
      'Wave 2 stopped the waves after it: context 2: its steady state was not met',
    );
  });
});
