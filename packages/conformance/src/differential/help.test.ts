// `alias chaos=chaoskit` (D162), with Chaos Toolkit itself as the oracle: every option, command
// and target the real `chaos --help` and `chaos <command> --help` list (chaostoolkit 1.19.0 with
// chaostoolkit-reporting 0.18.0, from PyPI) is one the built `chaoskit` knows at the same place.
// What each does is the runner's chaos-toolkit.test.ts; this file keeps that list honest.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exec, runnerCli } from './differential.js';
import { ensurePythonReporting } from './python-env.js';

let dir: string;
let chaos: string;
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  chaos = await ensurePythonReporting((line) => console.log(line));
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-help-'));
}, 1_200_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What a click help page lists: its options, its commands, and the choices of a `{a|b}` argument. */
function listed(help: string): { options: string[]; commands: string[]; targets: string[] } {
  const section = (title: string) => help.split(`\n${title}:\n`)[1]?.split(/\n\S/)[0] ?? '';
  const options = [...section('Options').matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]!);
  const commands = [...section('Commands').matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]!);
  const targets = /^Usage: .*\{([a-z|]+)\}/m.exec(help)?.[1]?.split('|') ?? [];
  return { options: options.filter((o) => o !== '--help'), commands, targets };
}

const help = async (cmd: string, args: string[]) => {
  const out = await exec(cmd, [...args, '--help'], { KUBECONFIG: '/nonexistent' }, dir);
  expect(out.code, out.output).toBe(0);
  return out.output;
};

describe("chaoskit knows what Chaos Toolkit's help lists", () => {
  it('before the command, and every command', async () => {
    const theirs = listed(await help(chaos, []));
    expect(theirs.options.length).toBeGreaterThanOrEqual(8);
    expect(theirs.commands).toEqual(expect.arrayContaining(['run', 'validate', 'report', 'settings']));
    const ours = await help(process.execPath, [runnerCli()]);
    for (const option of theirs.options) expect(ours, option).toContain(option);
    for (const command of theirs.commands)
      expect(ours, command).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
  });

  for (const command of ['run', 'validate', 'discover', 'init', 'info', 'report', 'settings']) {
    it(`chaos ${command}`, async () => {
      const theirs = listed(await help(chaos, [command]));
      const ours = await help(process.execPath, [runnerCli(), command]);
      for (const option of theirs.options) expect(ours, `${command} ${option}`).toContain(option);
      for (const sub of theirs.commands)
        expect(ours, `${command} ${sub}`).toMatch(new RegExp(`^ {2}${sub}\\b`, 'm'));
      // `chaos info {core|settings|extensions}`: each target runs.
      for (const target of theirs.targets) {
        const out = await exec(
          process.execPath,
          [runnerCli(), command, target],
          { KUBECONFIG: '/nonexistent' },
          dir,
        );
        expect(out.code, `${command} ${target}: ${out.output}`).toBe(0);
      }
    });
  }
});
