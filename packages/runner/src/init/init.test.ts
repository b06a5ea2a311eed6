// `chaoskit init` as users run it: from flags (scripts), and on a terminal (`script` gives it
// one; the test answers each question once it is shown). What it writes passes validate.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chaoskitCommand, runCli } from '../testing/test-cli.js';
import { activity } from '../testing/test-experiments.js';
import { parseValue } from './init.js';

let dir: string;
// Every test starts the command a few times: on 2 shared cores, that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const chaoskit = (args: string[]) => runCli(args, { cwd: dir });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-init-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('chaoskit init from flags', () => {
  it('writes an experiment that validates, with the module names given: probes, activities with arguments, rollbacks', async () => {
    const path = join(dir, 'web.yaml');
    const { code, stderr } = await chaoskit([
      'init',
      '--experiment-path',
      path,
      '--title',
      'Web survives',
      '--description',
      'two pods killed',
      '--probe',
      'chaosk8s.pod.probes.count_pods',
      '--arg',
      'label_selector=app=web',
      '--tolerance',
      '3',
      '--activity',
      'chaoscluster.pod.actions.terminate_pods',
      '--arg',
      'label_selector=app=web',
      '--arg',
      'qty=2',
      '--background',
      '--activity',
      'chaoscluster.pod.actions.terminate_pods',
      '--arg',
      'label_selector=app=db',
      '--rollback',
      'chaoscluster.deployment.actions.scale_deployment',
      '--arg',
      'name=web',
      '--arg',
      'replicas=3',
    ]);
    expect(code, stderr).toBe(0);
    interface Written {
      'steady-state-hypothesis': { probes: unknown[] };
      method: Array<{ name: string; background?: boolean; provider: { module: string; arguments: unknown } }>;
      rollbacks: Array<{ provider: { arguments: unknown } }>;
    }
    const experiment = load(await readFile(path, 'utf8')) as Written;
    expect(experiment['steady-state-hypothesis'].probes).toEqual([
      {
        ...activity('probe', 'count-pods', 'chaosk8s.pod.probes', 'count_pods', {
          label_selector: 'app=web',
        }),
        tolerance: 3,
      },
    ]);
    expect(experiment.method.map((a) => [a.name, a.provider.arguments, a.background])).toEqual([
      ['terminate-pods', { label_selector: 'app=web', qty: 2 }, true],
      ['terminate-pods-2', { label_selector: 'app=db' }, undefined],
    ]);
    // chaoskit's own names where they were given so.
    expect(experiment.method.map((a) => a.provider.module)).toEqual([
      'chaoscluster.pod.actions',
      'chaoscluster.pod.actions',
    ]);
    expect(experiment.rollbacks[0]?.provider.arguments).toEqual({ name: 'web', replicas: 3 });
    const validate = await chaoskit(['validate', path]);
    expect(validate.code, validate.stderr).toBe(0);
  });

  it('writes JSON for any other extension; refuses to overwrite without --force', async () => {
    const path = join(dir, 'experiment.json');
    const args = ['init', '--experiment-path', path, '--title', 't', '--description', 'd'];
    const probe = ['--activity', 'chaoscluster.pod.probes.count_pods', '--arg', 'label_selector=app=web'];
    expect((await chaoskit([...args, ...probe])).code).toBe(0);
    expect(JSON.parse(await readFile(path, 'utf8')).method[0].type).toBe('probe');
    const again = await chaoskit([...args, ...probe]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/exists; .*--force/)]);
    expect((await chaoskit([...args, '--force'])).code).toBe(0);
    expect(JSON.parse(await readFile(path, 'utf8')).method).toEqual([]);
    expect((await chaoskit(['validate', path])).code).toBe(0);
  });

  it('writes nothing that would not validate, and says why', async () => {
    const path = join(dir, 'bad.yaml');
    const base = ['init', '--experiment-path', path, '--title', 't', '--description', 'd'];
    const cases: Array<[string[], RegExp]> = [
      [
        ['--activity', 'chaoscluster.pod.actions.terminate_pods', '--arg', 'qty=-1'],
        /terminate_pods: argument 'qty': expected an integer at least 0/,
      ],
      [
        ['--probe', 'chaoscluster.pod.actions.terminate_pods'],
        /is an action: the steady-state hypothesis holds probes/,
      ],
      [['--rollback', 'chaoscluster.pod.probes.count_pods'], /is a probe: rollbacks are actions/],
      [['--activity', 'chaoscluster.pod.actions.kill'], /has no function 'kill'/],
    ];
    for (const [flags, expected] of cases) {
      const { code, stderr } = await chaoskit([...base, ...flags]);
      expect(code, flags.join(' ')).toBe(1);
      expect(stderr).toMatch(expected);
      expect(existsSync(path)).toBe(false);
    }
    const usage = await chaoskit(['init', '--arg', 'x=1', '--title', 't']);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringMatching(/--arg belongs to an activity/)]);
    const noTerminal = await chaoskit(['init']);
    expect(noTerminal.stderr).toMatch(/init asks on a terminal, and stdin is not one: give --title/);
  });

  it('reads values as JSON when they are JSON, as text otherwise', () => {
    expect([parseValue('3'), parseValue('true'), parseValue('null'), parseValue('[1]')]).toEqual([
      3,
      true,
      null,
      [1],
    ]);
    expect([parseValue('app=web'), parseValue('"3"'), parseValue('${ns}')]).toEqual([
      'app=web',
      '3',
      '${ns}',
    ]);
  });
});

/** A program on a terminal: its screen as text, and keys to type once something is shown. */
function onTerminal(args: string[]) {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const child: ChildProcess = spawn(
    'script',
    ['-q', '-e', '-c', [...chaoskitCommand, ...args].map(quote).join(' '), '/dev/null'],
    {
      cwd: dir,
      env: { ...process.env, TERM: 'xterm' },
    },
  );
  let screen = '';
  let seen = 0;
  child.stdout?.on('data', (chunk) => {
    // Without the terminal's colours and cursor moves.
    screen += stripVTControlCharacters(String(chunk));
  });
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return {
    exited,
    screen: () => screen,
    /** Waits until `text` is shown (after what was waited for before), then types `keys`. */
    async answer(text: string, keys: string) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const at = screen.indexOf(text, seen);
        if (at >= 0) {
          seen = at + text.length;
          break;
        }
        if (Date.now() > deadline) throw new Error(`never shown: ${text}\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      child.stdin?.write(keys);
    },
  };
}

describe('chaoskit init on a terminal', () => {
  it("asks for the title, the description and the activities, picked from the installed ones by Chaos Toolkit's names", async () => {
    const path = join(dir, 'asked.yaml');
    const wizard = onTerminal(['init']);
    await wizard.answer("Experiment's title", 'Web survives\r');
    await wizard.answer('What it checks', 'two pods killed\r');
    await wizard.answer('Define a steady-state hypothesis now?', 'n\r');
    await wizard.answer('A method activity', 'count_pods');
    await wizard.answer('chaosk8s.pod.probes.count_pods', '\r');
    await wizard.answer('label_selector', 'app=web\r');
    await wizard.answer('phase', '\r');
    await wizard.answer('ns', 'shop\r');
    await wizard.answer('A method activity', '\r');
    await wizard.answer('Add rollbacks?', '\r');
    await wizard.answer('Save it as', `${path}\r`);
    expect(await wizard.exited, wizard.screen()).toBe(0);
    expect(load(await readFile(path, 'utf8'))).toEqual({
      title: 'Web survives',
      description: 'two pods killed',
      method: [
        activity('probe', 'count-pods', 'chaosk8s.pod.probes', 'count_pods', {
          label_selector: 'app=web',
          ns: 'shop',
        }),
      ],
    });
    expect((await chaoskit(['validate', path])).code).toBe(0);
  });
});
