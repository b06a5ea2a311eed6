import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, prepareExperiment } from '../prepare/prepare.js';
import {
  type Journal,
  journalWriter,
  logEvents,
  type RollbackStrategy,
  type RunEvent,
  runExperiment,
} from './index.js';

// The run flow with real processes as probes and actions: a flag file is the "system".
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sh = (name: string, script: string, type: 'probe' | 'action' = 'action', extra: Json = {}) => ({
  type,
  name,
  provider: { type: 'process', path: 'sh', arguments: ['-c', script] },
  ...extra,
});

function experiment(
  flag: string,
  opts: { before?: boolean; breaks?: boolean; probeFails?: boolean } = {},
): Json {
  return {
    title: 'the flag survives',
    description: 'a flag file is the steady state',
    'steady-state-hypothesis': {
      title: 'flag present',
      probes: [
        opts.probeFails
          ? {
              type: 'probe',
              name: 'flag-present',
              tolerance: 0,
              provider: { type: 'http', url: 'http://127.0.0.1:9/', timeout: 2 },
            }
          : sh('flag-present', `test -f ${flag}`, 'probe', { tolerance: 0 }),
      ],
    },
    method: [sh('touch-nothing', 'true'), ...(opts.breaks ? [sh('remove-flag', `rm -f ${flag}`)] : [])],
    rollbacks: [sh('restore-flag', `touch ${flag}`)],
  };
}

async function run(e: Json, rollbackStrategy: RollbackStrategy = 'default'): Promise<Journal> {
  return runExperiment(await prepareExperiment(e), { rollbackStrategy });
}

describe('run flow and rollback strategies (the scenarios of Chaos Toolkit runs)', () => {
  it('all good: completed, hypothesis met before and after, rollbacks played by default', async () => {
    const flag = join(dir, 'good');
    await writeFile(flag, '');
    const j = await run(experiment(flag));
    expect([j.status, j.deviated]).toEqual(['completed', false]);
    expect(j.steady_states.before?.steady_state_met).toBe(true);
    expect(j.steady_states.after?.steady_state_met).toBe(true);
    expect(j.run.map((r) => r.activity.name)).toEqual(['touch-nothing']);
    expect(j.rollbacks.map((r) => r.activity.name)).toEqual(['restore-flag']);
  });

  it.each<[RollbackStrategy, number]>([
    ['default', 1],
    ['always', 1],
    ['never', 0],
    ['deviated', 0],
  ])(
    'gate tolerance not met: completed, method skipped; rollbacks with %s: %i',
    async (strategy, rollbacks) => {
      const flag = join(dir, `gate-${strategy}`);
      const j = await run(experiment(flag), strategy);
      expect([j.status, j.deviated]).toEqual(['completed', false]);
      expect(j.steady_states.before?.steady_state_met).toBe(false);
      expect(j.steady_states.after).toBeNull();
      expect(j.run).toEqual([]);
      expect(j.rollbacks).toHaveLength(rollbacks);
      expect(existsSync(flag)).toBe(rollbacks === 1);
    },
  );

  it.each<[RollbackStrategy, number]>([
    ['default', 0],
    ['always', 1],
    ['never', 0],
  ])('gate probe failed: status failed; rollbacks with %s: %i', async (strategy, rollbacks) => {
    const j = await run(experiment(join(dir, `failed-${strategy}`), { probeFails: true }), strategy);
    expect(j.status).toBe('failed');
    expect(j.steady_states.before?.probes[0]?.status).toBe('failed');
    expect(j.steady_states.before?.probes[0]?.exception?.[0]).toMatch(/failed to connect/);
    expect(j.rollbacks).toHaveLength(rollbacks);
  });

  it.each<[RollbackStrategy, number]>([
    ['default', 1],
    ['deviated', 1],
    ['never', 0],
  ])('after-hypothesis not met: deviated; rollbacks with %s: %i', async (strategy, rollbacks) => {
    const flag = join(dir, `deviated-${strategy}`);
    await writeFile(flag, '');
    const j = await run(experiment(flag, { breaks: true }), strategy);
    expect([j.status, j.deviated]).toEqual(['completed', true]);
    expect(j.steady_states.after?.steady_state_met).toBe(false);
    expect(j.rollbacks).toHaveLength(rollbacks);
    expect(existsSync(flag)).toBe(rollbacks === 1);
  });

  it('a failed action does not stop the method', async () => {
    const j = await run({
      title: 't',
      description: 'd',
      method: [
        sh('fails', 'exit 3'),
        { type: 'action', name: 'unreachable', provider: { type: 'http', url: 'http://127.0.0.1:9/' } },
        sh('runs', 'echo ran'),
      ],
    });
    expect(j.run.map((r) => [r.activity.name, r.status])).toEqual([
      ['fails', 'succeeded'], // a non-zero exit is an output, not a failure (as Chaos Toolkit)
      ['unreachable', 'failed'],
      ['runs', 'succeeded'],
    ]);
    expect((j.run[0]!.output as { status: number }).status).toBe(3);
    expect(j.status).toBe('completed');
  });
});

describe('journal, configuration, secrets and pauses', () => {
  it("records Chaos Toolkit's journal fields and substitutes configuration and secrets from the environment", async () => {
    process.env.CHAOSKIT_RUN_TEST_GREETING = 'hello from env';
    process.env.CHAOSKIT_RUN_TEST_TOKEN = 'not-to-be-printed-7f3a';
    const j = await run({
      title: 'greeting ${who}',
      description: 'd',
      configuration: { who: 'world', greeting: { type: 'env', key: 'CHAOSKIT_RUN_TEST_GREETING' } },
      secrets: { api: { token: { type: 'env', key: 'CHAOSKIT_RUN_TEST_TOKEN' } } },
      method: [sh('say', 'echo "${greeting}"'), sh('leak', 'echo "${token}"')],
    });
    for (const key of [
      'chaoslib-version',
      'platform',
      'node',
      'experiment',
      'start',
      'status',
      'deviated',
      'steady_states',
      'run',
      'rollbacks',
      'end',
      'duration',
    ]) {
      expect(j).toHaveProperty(key);
    }
    // The format's version as SemVer, as Chaos Toolkit's tools read it; chaoskit's under its own key.
    expect(j['chaoslib-version']).toBe('1.45.0');
    expect(j['chaoskit-version']).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    );
    expect(j.experiment.title).toBe('greeting world');
    expect((j.run[0]!.output as { stdout: string }).stdout).toBe('hello from env\n');
    // The journal's copy of a secret is masked.
    expect((j.run[1]!.output as { stdout: string }).stdout).toBe('***\n');
    for (const r of j.run) {
      expect(r).toMatchObject({ status: 'succeeded' });
      expect(typeof r.duration).toBe('number');
      expect(Date.parse(r.end)).toBeGreaterThanOrEqual(Date.parse(r.start));
    }
  });

  it('pauses after an activity for the given seconds (also from ${name})', async () => {
    const j = await run({
      title: 't',
      description: 'd',
      configuration: { wait: 1 },
      method: [sh('first', 'true', 'action', { pauses: { after: '${wait}' } }), sh('second', 'true')],
    });
    const gap = Date.parse(j.run[1]!.start) - Date.parse(j.run[0]!.end);
    expect(gap).toBeGreaterThanOrEqual(950);
  });
});

// What a run says as it goes, heard as its listeners hear it: a run interrupted in the middle
// of its method as Ctrl-C interrupts `chaoskit run` (the run's signal aborted).
/** Waits until `path` exists (the process got there). */
async function until(path: string): Promise<void> {
  while (!existsSync(path)) await delay(20);
}

/** An event as the sequence shows it: its type, and what it is about. */
function said(event: RunEvent): string {
  switch (event.type) {
    case 'phase-started':
    case 'phase-ended':
      return `${event.type} ${event.phase === 'hypothesis' ? `hypothesis ${event.when}` : event.phase}`;
    case 'activity-started':
    case 'activity-ended':
    case 'activity-called':
      return `${event.type} ${event.phase} ${event.activity?.name}`;
    case 'activity-returned':
      return `${event.type} ${event.phase} ${event.run.activity.name} ${event.run.status}`;
    case 'interrupted':
      return `${event.type} by ${event.by}`;
    case 'journal-written':
      return `${event.type}${event.final ? ' final' : ''}`;
    case 'run-ended':
      return `${event.type} ${event.journal.status}`;
    default:
      return event.type;
  }
}

describe('run events', () => {
  it('of a run whose method is interrupted: the activity stops, the rollbacks play, the journal follows', async () => {
    const started = join(dir, 'started');
    const pidFile = join(dir, 'pid');
    const prepared = await prepareExperiment({
      title: 'interrupted',
      description: 'the method is interrupted while its first action runs',
      'steady-state-hypothesis': {
        title: 'all is well',
        probes: [sh('well', 'true', 'probe', { tolerance: 0 })],
      },
      method: [
        // `$$$$`: `$$` once substituted (Chaos Toolkit's escape), the shell's pid.
        sh('sleeper', `echo $$$$ > ${pidFile}; touch ${started}; exec sleep 600`),
        sh('never', `touch ${join(dir, 'never')}`),
      ],
      rollbacks: [sh('restore', 'true')],
    });
    const events: RunEvent[] = [];
    const lines: string[] = [];
    const written: string[] = [];
    const journalFile = journalWriter(async (text) => {
      written.push(text);
    });
    const interrupt = new AbortController();
    const run = runExperiment(prepared, {
      signal: interrupt.signal,
      listeners: [
        (event) => {
          events.push(event);
        },
        logEvents({ info: (line) => lines.push(line), warn: (line) => lines.push(`WARN ${line}`) }),
        journalFile.listener,
      ],
    });
    await until(started);
    interrupt.abort(new Error('interrupted by SIGINT'));
    const journal: Journal = await run;

    expect(events.map(said)).toEqual([
      'run-started',
      'phase-started hypothesis before',
      'activity-started hypothesis well',
      'activity-called hypothesis well',
      'activity-returned hypothesis well succeeded',
      'journal-written',
      'activity-ended hypothesis well',
      'phase-ended hypothesis before',
      'phase-started method',
      'activity-started method sleeper',
      'activity-called method sleeper',
      'activity-returned method sleeper failed',
      'journal-written',
      'activity-ended method sleeper',
      'phase-ended method',
      'interrupted by signal',
      'phase-started rollbacks',
      'activity-started rollbacks restore',
      'activity-called rollbacks restore',
      'activity-returned rollbacks restore succeeded',
      'journal-written',
      'activity-ended rollbacks restore',
      'phase-ended rollbacks',
      'run-ended interrupted',
      'journal-written final',
    ]);
    // The rollbacks play because of the interruption (D70).
    expect(events.find((e) => e.type === 'phase-started' && e.phase === 'rollbacks')).toMatchObject({
      afterInterruption: true,
    });
    // The activity under way stopped: its process is gone, and its entry says why.
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(journal.run.map((r) => [r.activity.name, r.status, r.exception?.[0]])).toEqual([
      [
        'sleeper',
        'failed',
        'Interrupted: the run was interrupted while this activity ran; it stopped at its next safe point',
      ],
    ]);
    expect(existsSync(join(dir, 'never'))).toBe(false);
    // The journal written last is the journal the run returned.
    expect(JSON.parse(written.at(-1)!)).toEqual(JSON.parse(JSON.stringify(journal)));
    expect(await journalFile.finished()).toBe(written.at(-1));
    // The log says it in the run's words.
    expect(lines).toContain('Action: sleeper');
    expect(lines).toContain(
      'WARN   => failed: Interrupted: the run was interrupted while this activity ran; it stopped at its next safe point',
    );
    expect(lines).toContain('WARN Interrupted: playing the rollbacks before stopping');
    expect(lines.at(-1)).toBe('Experiment ended with status: interrupted');
  });
});
