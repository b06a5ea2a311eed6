// Issue 38's acceptance: chaoskit in the cluster from npm alone, in an empty directory, following
// only the READMEs (packages/runner's "Running in the cluster", packages/cluster's "For people"):
// the tarballs installed, the runner image built from them (chaoskit image build), a local
// cluster with a real node (chaoskit-cluster up --real-nodes 1), the image imported
// (chaoskit-cluster import), an experiment deployed as a CronJob every minute, and its journal
// read back (chaoskit journals). Where this machine cannot run real nodes, skipped with the reason.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realNodeProblems } from '@chaoskit/cluster';
import { until } from '@chaoskit/cluster/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { npmInstall, releaseTarballs, runAsync } from './release.js';

let scratch: string;
let project: string;
let version: string;
let up: ChildProcess | undefined;
let problems: string[];

/** A command of the installed packages, as the READMEs write it (npx), in the user's directory. */
async function npx(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out = await runAsync('npx', ['--no-install', ...args], { cwd: project, env });
  const tail = (text: string) => text.trim().split('\n').slice(-8).join('\n');
  process.stdout.write(
    `\n$ npx ${args.join(' ')}\nexit ${out.code}\n${tail(out.stdout)}\n${tail(out.stderr)}\n`,
  );
  return out;
}

beforeAll(async () => {
  problems = await realNodeProblems();
  if (problems.length > 0) return;
  scratch = mkdtempSync(join(tmpdir(), 'chaoskit-in-cluster-'));
  project = join(scratch, 'empty');
  mkdirSync(project);
  const release = await releaseTarballs();
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'chaos', private: true, type: 'module' }),
  );
  // npm install @chaoskit/runner @chaoskit/cluster, from the tarballs (core is the runner's).
  const install = await npmInstall(
    project,
    ['@chaoskit/runner', '@chaoskit/core', '@chaoskit/cluster'].map((name) => release.tarball(name)),
  );
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  // The command's version, which names the image (the tarballs' dist/ was built before the
  // release's versions were written: a release builds after them).
  version = (
    await runAsync('npx', ['--no-install', 'chaoskit', '--version'], { cwd: project })
  ).stdout.trim();
}, 600_000);

afterAll(async () => {
  if (up && up.exitCode === null) {
    up.kill('SIGINT');
    await new Promise((r) => up!.once('exit', r));
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

it('builds the runner image, imports it into a local cluster with a real node, deploys a CronJob and reads its journal back', async (ctx) => {
  if (problems.length > 0) ctx.skip(`real nodes cannot run on this machine: ${problems.join('; ')}`);
  const built = await npx(['chaoskit', 'image', 'build']);
  expect(built.code, built.stderr).toBe(0);
  const archive = join(project, `chaoskit-runner-${version}.tar`);
  expect(existsSync(archive)).toBe(true);
  expect(built.stdout).toContain(`built chaoskit.local/runner:${version} with `);

  // The installed bin itself (what npx runs), so that Ctrl-C's SIGINT reaches it.
  up = spawn(
    join(project, 'node_modules', '.bin', 'chaoskit-cluster'),
    ['up', '--real-nodes', '1', '--no-mesh'],
    {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let printed = '';
  up.stdout!.on('data', (chunk) => (printed += chunk));
  up.stderr!.on('data', (chunk) => (printed += chunk));
  await until(
    'chaoskit-cluster up to start',
    () => {
      if (up!.exitCode !== null) throw new Error(`chaoskit-cluster up exited:\n${printed}`);
      return /press Ctrl-C to stop it/.test(printed);
    },
    { timeoutMs: 600_000, intervalMs: 500 },
  );
  process.stdout.write(`\n$ chaoskit-cluster up --real-nodes 1 --no-mesh\n${printed}`);
  expect(printed).toMatch(/real nodes: real-node-0/);
  const env = { KUBECONFIG: /export KUBECONFIG=(\S+)/.exec(printed)![1]! };

  const imported = await npx(['chaoskit-cluster', 'import', `chaoskit-runner-${version}.tar`], env);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toBe(
    `imported chaoskit.local/runner:${version} into real-node-0: each node reports it\n`,
  );

  writeFileSync(
    join(project, 'no-stray-pods.yaml'),
    [
      'title: no stray pods',
      'description: counted from inside the cluster',
      'steady-state-hypothesis:',
      '  title: nothing labelled app=stray',
      '  probes:',
      '    - type: probe',
      '      name: stray-pods',
      '      tolerance: 0',
      '      provider:',
      '        type: python',
      '        module: chaosk8s.pod.probes',
      '        func: count_pods',
      '        arguments: { label_selector: app=stray }',
      'method: []',
      '',
    ].join('\n'),
  );
  const deployed = await npx(
    ['chaoskit', 'deploy', 'no-stray-pods.yaml', '-n', 'default', '--schedule', '* * * * *'],
    env,
  );
  expect(deployed.code, deployed.stderr).toBe(0);
  // The default image, on the node that holds it: nothing to warn of.
  expect(deployed.stderr).toBe('');
  expect(deployed.stdout).toContain('cronjob/chaoskit-no-stray-pods -n default applied');

  // The CronJob's first run comes on the minute.
  const [kept] = await until(
    'the first run to keep its journal',
    async () => {
      const listed = await runAsync(
        'npx',
        ['--no-install', 'chaoskit', 'journals', '-n', 'default', '--json'],
        {
          cwd: project,
          env,
        },
      );
      const runs = JSON.parse(listed.stdout || '[]') as Array<{ status: string }>;
      return runs.some((r) => r.status !== 'running') ? runs : undefined;
    },
    { timeoutMs: 300_000, intervalMs: 5000 },
  );
  expect(kept).toMatchObject({ experiment: 'no-stray-pods', title: 'no stray pods', status: 'completed' });
  const journal = await npx(['chaoskit', 'journals', 'latest', '-n', 'default'], env);
  expect(journal.code, journal.stderr).toBe(0);
  const read = JSON.parse(journal.stdout);
  expect(read.status).toBe('completed');
  expect(read.steady_states.before.probes[0]).toMatchObject({ status: 'succeeded', output: 0 });
}, 1_200_000);
