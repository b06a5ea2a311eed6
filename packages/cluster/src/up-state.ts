// What `chaoskit-cluster up` leaves on disk while its cluster runs, so that `chaoskit-cluster
// down` (from another terminal, a script, CI) can find and stop it, and so that whatever an
// `up` killed beyond recovery left behind is removed by the next `up` or `down`.
//
// One file per `up` process: its pid and command, and for a local cluster the components' pids
// and the cluster's directory. A pid is acted on only if it is still the process the file names
// (on Linux its command line is checked: a pid reused by another program is left alone).

import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive } from './host/processes.js';
import type { Cluster } from './types.js';

export interface UpState {
  /** The `up` process. */
  pid: number;
  /** Its command line (Linux: /proc), which a pid reused by another program does not have. */
  cmdline?: string;
  provider: string;
  kubeconfigPath: string;
  /** A local cluster's directory (its components' command lines name it). */
  dir?: string;
  /** A local cluster's component processes. */
  componentPids?: number[];
}

/** Where the files are: $CHAOSKIT_STATE_DIR, else $XDG_STATE_HOME/chaoskit/clusters. */
export function stateDir(): string {
  return (
    process.env.CHAOSKIT_STATE_DIR ??
    join(process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'chaoskit', 'clusters')
  );
}

const PROC_SELF = '/proc/self/cmdline';
const fileOf = (pid: number) => join(stateDir(), `up-${pid}.json`);

export async function writeUpState(cluster: Cluster): Promise<string> {
  const local = cluster as Partial<{ dir: string; pids: number[] }>;
  const state: UpState = {
    pid: process.pid,
    ...(existsSync(PROC_SELF) ? { cmdline: readFileSync(PROC_SELF, 'utf8') } : {}),
    provider: cluster.provider,
    kubeconfigPath: cluster.kubeconfigPath,
    ...(local.dir ? { dir: local.dir } : {}),
    ...(local.pids ? { componentPids: local.pids } : {}),
  };
  await mkdir(stateDir(), { recursive: true });
  // Whole or not at all: a `down` reading it meanwhile never sees half of it.
  const scratch = `${fileOf(process.pid)}.tmp`;
  await writeFile(scratch, `${JSON.stringify(state, null, 2)}\n`);
  await rename(scratch, fileOf(process.pid));
  return fileOf(process.pid);
}

export async function removeUpState(pid = process.pid): Promise<void> {
  await rm(fileOf(pid), { force: true });
}

async function readStates(): Promise<UpState[]> {
  const names = await readdir(stateDir()).catch(() => [] as string[]);
  const states: UpState[] = [];
  for (const name of names.filter((n) => /^up-\d+\.json$/.test(n))) {
    try {
      states.push(JSON.parse(await readFile(join(stateDir(), name), 'utf8')) as UpState);
    } catch {
      await rm(join(stateDir(), name), { force: true }); // not ours: files are written whole
    }
  }
  return states;
}

/**
 * Whether `pid` runs and, where command lines can be read, has the one `is` accepts: the `up`
 * process its own, a component one that names the cluster's directory.
 */
function runs(pid: number, is: (cmdline: string) => boolean): boolean {
  if (!isAlive(pid)) return false;
  if (!existsSync(PROC_SELF)) return true;
  try {
    return is(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

/** Signals `pid`; one that has just exited is not an error. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {}
}

const upProcess = (state: UpState) => (cmdline: string) =>
  state.cmdline === undefined || cmdline === state.cmdline;
const component = (dir: string) => (cmdline: string) => cmdline.includes(dir);

async function gone(pids: number[], is: (cmdline: string) => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some((p) => runs(p, is))) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * The cluster of the `up` that still runs and whose kubeconfig is `kubeconfig` — or, with none
 * given, the only one running, else the one `$KUBECONFIG` names. What is wrong says what to give.
 */
export async function runningUp(kubeconfig?: string, env = process.env): Promise<UpState> {
  const ups = (await readStates()).filter((s) => runs(s.pid, upProcess(s)));
  if (ups.length === 0)
    throw new Error(
      'no cluster started by chaoskit-cluster up is running: start one with chaoskit-cluster up --real-nodes 1',
    );
  const named = kubeconfig ?? (ups.length > 1 ? env.KUBECONFIG : undefined);
  const chosen = named ? ups.filter((s) => resolve(s.kubeconfigPath) === resolve(named)) : ups;
  if (chosen.length === 1) return chosen[0]!;
  const which = ups.map((s) => s.kubeconfigPath).join(', ');
  throw new Error(
    kubeconfig
      ? `--kubeconfig ${kubeconfig} is not the kubeconfig of a cluster chaoskit-cluster up runs: those are ${which}`
      : `${ups.length} clusters started by chaoskit-cluster up are running: give --kubeconfig with one of ${which}`,
  );
}

/** Stops what an `up` that no longer runs left behind: its components and its directory. */
async function removeLeftovers(state: UpState): Promise<string | undefined> {
  const ours = component(state.dir ?? '');
  const left = state.dir ? (state.componentPids ?? []).filter((p) => runs(p, ours)) : [];
  for (const p of left) signal(p, 'SIGTERM');
  if (!(await gone(left, ours, 5000)))
    for (const p of left.filter((x) => runs(x, ours))) signal(p, 'SIGKILL');
  const hadDir = state.dir !== undefined && existsSync(state.dir);
  if (state.dir) await rm(state.dir, { recursive: true, force: true });
  await removeUpState(state.pid);
  if (!left.length && !hadDir) return undefined;
  return `removed what a stopped chaoskit-cluster up (pid ${state.pid}) left behind: ${left.length} process(es)${hadDir ? ' and its directory' : ''}`;
}

/** The next `up` and `down` clean up after an `up` that was killed beyond recovery. */
export async function cleanStaleUps(say: (line: string) => void): Promise<void> {
  for (const state of await readStates()) {
    if (state.pid === process.pid || runs(state.pid, upProcess(state))) continue;
    const done = await removeLeftovers(state);
    if (done) say(done);
  }
}

/**
 * `down`: every cluster a running `up` started is stopped by that `up` (SIGTERM: it stops its
 * cluster as on Ctrl-C, and removes its file); an `up` that does not stop within `timeoutMs`
 * is killed, and what it leaves is removed. Returns how many clusters were stopped.
 */
export async function stopUps(say: (line: string) => void, timeoutMs = 60_000): Promise<number> {
  await cleanStaleUps(say);
  let stopped = 0;
  for (const state of await readStates()) {
    if (state.pid === process.pid || !runs(state.pid, upProcess(state))) continue;
    signal(state.pid, 'SIGTERM');
    if (!(await gone([state.pid], upProcess(state), timeoutMs))) {
      signal(state.pid, 'SIGKILL');
      await gone([state.pid], upProcess(state), 5000);
    }
    await removeLeftovers(state);
    say(
      `stopped the ${state.provider} cluster of chaoskit-cluster up (pid ${state.pid}, ${state.kubeconfigPath})`,
    );
    stopped++;
  }
  return stopped;
}
