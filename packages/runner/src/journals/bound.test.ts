import { describe, expect, it } from 'vitest';
import { boundedJournal, JOURNAL_BOUND_BYTES } from './bound.js';

const entry = (name: string, output: unknown, logs: string[] = []) => ({
  activity: { type: 'action', name },
  output,
  start: '2025-01-01T00:00:00.000Z',
  status: 'succeeded',
  end: '2025-01-01T00:00:01.000Z',
  duration: 1,
  logs,
});

const journal = (extra: Record<string, unknown> = {}) => ({
  'chaoslib-version': '1.45.0',
  experiment: { title: 'big outputs', method: [] },
  start: '2025-01-01T00:00:00.000Z',
  status: 'completed',
  deviated: false,
  steady_states: { before: { steady_state_met: true, probes: [entry('count', 3)] }, after: null, during: [] },
  run: [entry('small', { pods: ['web-1'] }), entry('huge', 'x'.repeat(400_000), ['line'.repeat(50_000)])],
  rollbacks: [entry('undo', { blob: 'y'.repeat(700_000) })],
  ...extra,
});

const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const bytes = (value: string) => Buffer.byteLength(value, 'utf8');

describe('the bound of a journal kept in the cluster', () => {
  it('is under the 1 MiB a ConfigMap holds', () => {
    expect(JOURNAL_BOUND_BYTES).toBeLessThan(1024 * 1024);
  });

  it('keeps a journal that fits as it is, byte for byte', () => {
    const small = text({ ...journal(), run: [], rollbacks: [] });
    expect(boundedJournal(small)).toEqual({ text: small });
  });

  it('cuts the outputs and logs of a journal over it, keeping every entry, and says so', () => {
    const whole = text(journal());
    expect(bytes(whole)).toBeGreaterThan(JOURNAL_BOUND_BYTES);
    const { text: kept, truncation } = boundedJournal(whole);
    expect(bytes(kept)).toBeLessThanOrEqual(JOURNAL_BOUND_BYTES);
    const cut = JSON.parse(kept);
    // Whole-structured: every phase, activity, status and time is there.
    expect(cut.run.map((r: { activity: { name: string } }) => r.activity.name)).toEqual(['small', 'huge']);
    expect(cut.rollbacks[0]).toMatchObject({ activity: { name: 'undo' }, status: 'succeeded', duration: 1 });
    expect(cut.steady_states.before.probes[0].output).toBe(3);
    expect(cut.status).toBe('completed');
    // What was short stays; what was long is cut, saying how long it was.
    expect(cut.run[0].output).toEqual({ pods: ['web-1'] });
    expect(cut.run[1].output).toMatch(/^"xxx.*… \[truncated: 400002 characters\]$/);
    expect(cut.rollbacks[0].output).toMatch(/… \[truncated: \d+ characters\]$/);
    expect(cut.run[1].logs.at(-1)).toMatch(/… \[truncated: 1 more line\(s\)\]$/);
    expect(cut.truncated).toEqual(truncation);
    expect(truncation).toMatchObject({ bytes: bytes(whole), bound: JOURNAL_BOUND_BYTES, cut_to: 16_384 });
    expect(truncation?.note).toContain("the run's --journal-path holds them whole");
  });

  it('thins the checks during the method when even the shortest cut of every output does not fit', () => {
    const probe = entry('during', 'z'.repeat(500));
    const during = Array.from({ length: 3000 }, () => ({ steady_state_met: true, probes: [probe] }));
    const whole = text(journal({ steady_states: { before: null, after: null, during } }));
    const { text: kept, truncation } = boundedJournal(whole, 200_000);
    expect(bytes(kept)).toBeLessThanOrEqual(200_000);
    const cut = JSON.parse(kept);
    expect(cut.steady_states.during).toHaveLength(40);
    expect(truncation).toMatchObject({ during_left_out: 2960 });
    // The first and the last kept whole, their outputs too (only then the cut may be longer again).
    expect(cut.steady_states.during[39].probes[0].output).toBe('z'.repeat(500));
    expect(truncation?.note).toContain('2960 hypothesis checks during the method left out');
  });

  it('refuses a journal whose experiment alone is over it', () => {
    const whole = text(journal({ experiment: { title: 'vast', description: 'd'.repeat(300_000) } }));
    expect(() => boundedJournal(whole, 200_000)).toThrow(
      /does not fit in the 200000 bytes kept in the cluster even with its outputs, logs and exceptions cut to 64 characters: the experiment itself is too large/,
    );
  });
});
