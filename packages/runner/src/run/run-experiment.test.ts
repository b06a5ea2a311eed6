import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, prepareExperiment } from '../experiment.js';
import { type Journal, type RollbackStrategy, runExperiment } from './index.js';

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
