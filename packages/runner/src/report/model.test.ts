import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareExperiment } from '../prepare/prepare.js';
import { type Journal, runExperiment } from '../run/index.js';
import { compare, formatSeconds, instant, NotAJournal, reportModel, runReport } from './model.js';

// The fixtures are real journals: Chaos Toolkit 1.19.0 (chaostoolkit-lib 1.44.0) running
// fixtures/chaostoolkit-experiment*.json, and chaoskit running examples/experiments/drain-a-node.yaml
// on a local cluster (see fixtures/README.md).
const fixture = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const names = (run: ReturnType<typeof runReport>) => run.activities.map((a) => `${a.phase} ${a.name}`);

describe("a Chaos Toolkit journal (chaostoolkit-lib's format)", () => {
  it('completed: every activity in the order it ran, with its start, duration and status', async () => {
    const run = runReport(await fixture('chaostoolkit-completed.json'), 'completed.json');
    expect(run.producer).toBe('Chaos Toolkit (chaostoolkit-lib 1.44.0)');
    expect([run.status, run.deviated, run.outcome]).toEqual(['completed', false, 'completed']);
    expect(run.steadyState).toEqual({ before: true, after: true, during: { rounds: 0, met: 0 } });
    expect(names(run)).toEqual([
      'before status-file-says-ok',
      'before cache-entries-within-bounds',
      'method clear-the-cache',
      'method list-the-work-dir',
      'after status-file-says-ok',
      'after cache-entries-within-bounds',
      'rollbacks write-the-status-back',
    ]);
    expect(run.activities.every((a) => a.status === 'succeeded')).toBe(true);
    const offsets = run.activities.map((a) => a.offset!);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    // clear-the-cache pauses 1 s after it: the next activity starts that much later.
    const clear = run.activities[2]!;
    expect(run.activities[3]!.offset! - clear.offset!).toBeGreaterThan(1);
    expect(clear.provider).toBe('process sh');
    expect(clear.duration).toBe(0.002139);
    expect(clear.output).toMatchObject({ status: 0, stdout: expect.stringContaining('cleared') });
    expect(run.duration).toBe(1.024158000946045);
  });

  it('deviated: the failed action with its error, the probe whose tolerance was not met', async () => {
    const run = runReport(await fixture('chaostoolkit-deviated.json'), 'deviated.json');
    expect([run.status, run.deviated, run.outcome]).toEqual(['completed', true, 'deviated']);
    expect(run.steadyState.after).toBe(false);
    const failed = run.activities.filter((a) => a.status === 'failed');
    expect(failed.map((a) => a.name)).toEqual(['wait-for-the-cache-to-refill']);
    expect(failed[0]!.error).toBe(
      'chaoslib.exceptions.ActivityFailed: process activity took too long to complete',
    );
    expect(failed[0]!.trace!.length).toBeGreaterThan(3);
    const after = run.activities.filter((a) => a.phase === 'after');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      name: 'status-file-says-ok',
      toleranceMet: false,
      tolerance: { type: 'regex', pattern: '^ok', target: 'stdout' },
      target: { name: 'stdout', value: '<b>degraded</b> & "quoted"\n' },
    });
  });

  it('reads timestamps without a zone, as older Chaos Toolkit versions wrote them, as UTC', () => {
    expect(instant('2019-03-01T10:00:00.250000')).toBe(Date.UTC(2019, 2, 1, 10, 0, 0, 250) / 1000);
    expect(instant('2019-03-01T10:00:00.250000+00:00')).toBe(Date.UTC(2019, 2, 1, 10, 0, 0, 250) / 1000);
    expect(instant('2019-03-01T11:00:00+01:00')).toBe(Date.UTC(2019, 2, 1, 10) / 1000);
    expect(instant('not a time')).toBeUndefined();
  });
});

describe('a chaoskit journal', () => {
  it('of the first versions (chaoskit in chaoslib-version): what the actions touched, their logs and outputs, the run id', async () => {
    const run = runReport(await fixture('chaoskit-drain-a-node.json'), 'drain.json');
    expect(run.producer).toBe('chaoskit 0.0.0');
    expect(run.runId).toBe('20261123-075938-77c74f');
    const drain = run.activities.find((a) => a.name === 'drain-the-demo-node')!;
    expect(drain).toMatchObject({
      phase: 'method',
      provider: 'chaoscluster.node.actions.drain_nodes',
      status: 'succeeded',
      output: { nodes: ['node-a'], evicted: ['default/web-7f548d985-p7fd2'], skipped: [] },
    });
    expect(drain.logs[0]).toBe('cordoned node-a');
    expect(run.activities.find((a) => a.phase === 'rollbacks')?.logs).toEqual([
      'uncordoned 1 node(s): node-a',
    ]);
  });

  describe('of the Chaos Toolkit experiment, run by chaoskit with the hypothesis checked during the method', () => {
    let dir: string;
    let journal: Journal;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'chaoskit-report-'));
      await mkdir(join(dir, 'cache'));
      await writeFile(join(dir, 'status'), 'ok\n');
      await writeFile(join(dir, 'cache', 'a'), '');
      const experiment = (await fixture('chaostoolkit-experiment-deviating.json')) as Record<string, unknown>;
      const prepared = await prepareExperiment(experiment, {}, { ...process.env, WORK_DIR: dir });
      journal = await runExperiment(prepared, {
        hypothesisStrategy: 'continuously',
        hypothesisFrequency: 0.2,
      });
      // As `chaoskit run` writes it.
      journal = JSON.parse(JSON.stringify(journal));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('the rounds during the method are numbered and interleaved with the method by start', () => {
      const run = runReport(journal, 'chaoskit.json');
      expect(run.producer).toBe(`chaoskit ${journal['chaoskit-version']}`);
      expect(run.producer).toMatch(/^chaoskit \d+\.\d+\.\d+/);
      expect(run.outcome).toBe('deviated');
      expect(run.steadyState.during.rounds).toBeGreaterThan(0);
      const during = run.activities.filter((a) => a.phase === 'during');
      expect(during.length).toBeGreaterThan(0);
      expect(new Set(during.map((a) => a.round))).toEqual(
        new Set(Array.from({ length: run.steadyState.during.rounds }, (_, i) => i + 1)),
      );
      const offsets = run.activities.map((a) => a.offset!);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect(run.activities.find((a) => a.name === 'wait-for-the-cache-to-refill')?.status).toBe('failed');
    });

    it('compares with the Chaos Toolkit run of the same experiment activity by activity', async () => {
      const model = reportModel([
        { source: 'chaostoolkit.json', journal: await fixture('chaostoolkit-deviated.json') },
        { source: 'chaoskit.json', journal },
      ]);
      const rows = model.comparison!.rows;
      expect(rows.map((r) => `${r.phase} ${r.name}`)).toEqual([
        'before status-file-says-ok',
        'before cache-entries-within-bounds',
        'method clear-the-cache',
        'method break-the-status',
        'method wait-for-the-cache-to-refill',
        'method list-the-work-dir',
        'after status-file-says-ok',
        'rollbacks write-the-status-back',
      ]);
      expect(rows.every((r) => r.cells.every((c) => c !== undefined))).toBe(true);
      expect(
        rows.find((r) => r.name === 'wait-for-the-cache-to-refill')?.cells.map((c) => c?.status),
      ).toEqual(['failed', 'failed']);
    });
  });
});

describe('several journals', () => {
  it('one row per activity, in the order they ran; an activity one run lacks is an empty cell', async () => {
    const model = reportModel([
      { source: 'a/completed.json', journal: await fixture('chaostoolkit-completed.json') },
      { source: 'a/deviated.json', journal: await fixture('chaostoolkit-deviated.json') },
      { source: 'drain.json', journal: await fixture('chaoskit-drain-a-node.json') },
    ]);
    const rows = model.comparison!.rows.map((r) => [
      `${r.phase} ${r.name}`,
      ...r.cells.map((c) => c?.status ?? '-'),
    ]);
    expect(rows).toEqual([
      ['before status-file-says-ok', 'succeeded', 'succeeded', '-'],
      ['before cache-entries-within-bounds', 'succeeded', 'succeeded', '-'],
      ['before web-fully-available', '-', '-', 'succeeded'],
      ['method clear-the-cache', 'succeeded', 'succeeded', '-'],
      ['method break-the-status', '-', 'succeeded', '-'],
      ['method wait-for-the-cache-to-refill', '-', 'failed', '-'],
      ['method list-the-work-dir', 'succeeded', 'succeeded', '-'],
      ['method drain-the-demo-node', '-', '-', 'succeeded'],
      ['after status-file-says-ok', 'succeeded', 'succeeded', '-'],
      ['after cache-entries-within-bounds', 'succeeded', '-', '-'],
      ['after web-fully-available', '-', '-', 'succeeded'],
      ['rollbacks write-the-status-back', 'succeeded', 'succeeded', '-'],
      ['rollbacks uncordon-the-demo-node', '-', '-', 'succeeded'],
    ]);
    expect(model.runs.map((r) => r.label)).toEqual(['completed.json', 'deviated.json', 'drain.json']);
  });

  it('an activity a later run adds before the others goes before them', () => {
    const journal = (...method: string[]) => ({
      experiment: { title: 't' },
      run: method.map((name) => ({ activity: { name, type: 'action' }, status: 'succeeded', duration: 1 })),
    });
    const { rows } = compare([
      runReport(journal('b', 'c'), '1'),
      runReport(journal('a', 'b', 'x', 'c', 'c'), '2'),
    ]);
    expect(rows.map((r) => r.name)).toEqual(['a', 'b', 'x', 'c', 'c']);
    expect(rows.map((r) => r.cells.map((c) => (c ? 1 : 0)))).toEqual([
      [0, 1],
      [1, 1],
      [0, 1],
      [1, 1],
      [0, 1],
    ]);
  });

  it('labels runs by file name, by path when two file names are equal, by position when a path repeats', async () => {
    const journal = await fixture('chaostoolkit-completed.json');
    const labels = (...sources: string[]) =>
      reportModel(sources.map((source) => ({ source, journal }))).runs.map((r) => r.label);
    expect(labels('x/a.json', 'y/b.json')).toEqual(['a.json', 'b.json']);
    expect(labels('x/a.json', 'y/a.json')).toEqual(['x/a.json', 'y/a.json']);
    expect(labels('a.json', 'a.json')).toEqual(['1: a.json', '2: a.json']);
  });
});

describe('what is not a journal', () => {
  it('is refused with the file and what it lacks', async () => {
    const experiment = await fixture('chaostoolkit-experiment.json');
    expect(() => runReport(experiment, 'experiment.json')).toThrow(
      new NotAJournal(
        "experiment.json: not a journal of Chaos Toolkit or chaoskit: it has no 'run' list (the activities of the method)",
      ),
    );
    expect(() => runReport([1], 'list.json')).toThrow(/list\.json: .*a journal is a JSON object/);
    expect(() => runReport({ run: [] }, 'x.json')).toThrow(/x\.json: .*no 'experiment' object/);
    expect(() => runReport({ run: [], experiment: {}, rollbacks: 3 }, 'x.json')).toThrow(
      /x\.json: .*its rollbacks is not a list/,
    );
  });

  it('a journal written while its run went on (no status, no end) is unfinished', () => {
    const run = runReport(
      {
        experiment: { title: 't' },
        start: '2026-01-01T00:00:00Z',
        status: null,
        run: [{ activity: { name: 'a' }, start: '2026-01-01T00:00:01Z', status: 'succeeded', duration: 2 }],
      },
      'j.json',
    );
    expect([run.status, run.outcome, run.duration, run.end]).toEqual([
      'unfinished',
      'unfinished',
      undefined,
      undefined,
    ]);
    expect(run.activities[0]).toMatchObject({ offset: 1, duration: 2, type: 'activity' });
  });
});

it('formats durations as people read them', () => {
  expect([0.0018, 0.5, 1.4604, 12.34, 119.6, undefined].map(formatSeconds)).toEqual([
    '2 ms',
    '500 ms',
    '1.46 s',
    '12.3 s',
    '2 min 0 s',
    '–',
  ]);
});
