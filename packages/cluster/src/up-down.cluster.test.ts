// `chaoskit-cluster up` and `down` as users run them, on real processes: however `up` ends —
// a signal, `down` from elsewhere, the process that started it gone, SIGKILL — no component of
// its cluster and no file of it is left behind. Each test counts the processes whose command
// line names the cluster's directory, before and after.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from './host/until.js';

// The command as users run it (built by `./dev test` before the tests).
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let stateDir: string;
// Clusters of this file only: `down` acts on the `up`s of its state directory.
const env = () => ({ ...process.env, CHAOSKIT_STATE_DIR: stateDir });

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'chaoskit-up-state-'));
});
afterAll(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

function processes(): Array<{ pid: number; ppid: number; args: string }> {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, pid, ppid, args] = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line) ?? [];
      return { pid: Number(pid), ppid: Number(ppid), args: args ?? '' };
    });
}

/** The components of the cluster in `dir`: every process whose command line names it. */
const componentsIn = (dir: string) => processes().filter((p) => p.args.includes(dir));

interface Up {
  child: ChildProcess;
  /** The `up` process (the child, or the child of the shell that started it). */
  pid: number;
  dir: string;
  output: () => string;
}

/** Starts `up` (through `sh -c` when `viaShell`, as npx does) and waits for its cluster. */
async function up(viaShell = false): Promise<Up> {
  const args = [cli, 'up', '--nodes', '1', '--no-mesh'];
  const child = viaShell
    ? spawn('/bin/sh', ['-c', `"${process.execPath}" ${args.join(' ')}; true`], { env: env() })
    : spawn(process.execPath, args, { env: env() });
  let printed = '';
  child.stdout!.on('data', (d) => (printed += d));
  child.stderr!.on('data', (d) => (printed += d));
  await until(
    'chaoskit-cluster up to print its cluster',
    async () => /press Ctrl-C to stop it/.test(printed) || child.exitCode !== null,
    300_000,
  );
  expect(child.exitCode, printed).toBeNull();
  const dir = /export KUBECONFIG=(\S+)\/kubeconfig/.exec(printed)![1]!;
  const pid = viaShell
    ? processes().find((p) => p.ppid === child.pid && p.args.includes(cli))!.pid
    : child.pid!;
  // etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok.
  expect(componentsIn(dir)).toHaveLength(5);
  expect(readdirSync(stateDir)).toContain(`up-${pid}.json`);
  return { child, pid, dir, output: () => printed };
}

/** Waits until no component is left and the directory is removed. */
async function clusterGone(u: Up): Promise<void> {
  await until(
    'every component gone and the directory removed',
    async () => componentsIn(u.dir).length === 0 && !existsSync(u.dir),
    60_000,
  );
}

const stateFile = (u: Up) => readdirSync(stateDir).filter((f) => f === `up-${u.pid}.json`);

/**
 * Nothing of the cluster left: no component, no directory, no state file. `up` removes its state
 * file last, a moment after the directory: that moment is waited for too.
 */
async function nothingLeft(u: Up): Promise<void> {
  await clusterGone(u);
  await until('the state file of up removed', async () => stateFile(u).length === 0, 30_000).catch(
    () => undefined,
  );
  expect(stateFile(u)).toEqual([]);
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', r)));

it('stops its cluster on SIGHUP (its terminal closed), as on Ctrl-C', async () => {
  const u = await up();
  u.child.kill('SIGHUP');
  expect(await exited(u.child), u.output()).toBe(0);
  expect(u.output()).toContain('stopping (SIGHUP)');
  await nothingLeft(u);
}, 400_000);

it('down stops the cluster of an up running elsewhere, and says when there is none', async () => {
  const u = await up();
  const down = execFileSync(process.execPath, [cli, 'down'], { env: env(), encoding: 'utf8' });
  expect(down).toContain(`stopped the local cluster of chaoskit-cluster up (pid ${u.pid}`);
  expect(await exited(u.child), u.output()).toBe(0);
  expect(u.output()).toContain('stopping (SIGTERM)');
  await nothingLeft(u);
  const again = execFileSync(process.execPath, [cli, 'down'], { env: env(), encoding: 'utf8' });
  expect(again).toContain('no cluster started by chaoskit-cluster up is running');
}, 400_000);

it('stops its cluster when the process that started it is gone (npx killed by `kill $!`)', async () => {
  const u = await up(true);
  u.child.kill('SIGKILL'); // the shell: nothing reaches `up` but its parent's death
  await nothingLeft(u);
  expect(u.output()).toContain('stopping (the process that started it is gone)');
}, 400_000);

it('leaves no component behind when up itself is killed with SIGKILL (its watchdog stops them)', async () => {
  const u = await up();
  process.kill(u.pid, 'SIGKILL');
  await clusterGone(u);
  // Its state file names a dead `up`: the next `down` (or `up`) removes it, saying nothing.
  expect(stateFile(u)).toHaveLength(1);
  const down = execFileSync(process.execPath, [cli, 'down'], { env: env(), encoding: 'utf8' });
  expect(down).toBe('no cluster started by chaoskit-cluster up is running\n');
  expect(stateFile(u)).toEqual([]);
}, 400_000);

it('down removes what an up killed beyond recovery left behind (up and its watchdog SIGKILLed)', async () => {
  const u = await up();
  const watchdog = processes().find(
    (p) => p.ppid === u.pid && p.args.includes('chaoskit process group watchdog'),
  );
  expect(watchdog).toBeDefined();
  process.kill(watchdog!.pid, 'SIGKILL');
  process.kill(u.pid, 'SIGKILL');
  await exited(u.child);
  expect(componentsIn(u.dir)).toHaveLength(5);
  const down = execFileSync(process.execPath, [cli, 'down'], { env: env(), encoding: 'utf8' });
  expect(down).toContain(
    `removed what a stopped chaoskit-cluster up (pid ${u.pid}) left behind: 5 process(es) and its directory`,
  );
  await nothingLeft(u);
}, 400_000);
