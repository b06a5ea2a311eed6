import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { until } from './until.js';

interface Member {
  name: string;
  child: ChildProcess;
  logFile: string;
  exited: Promise<void>;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

// Children of every live group, killed if this process exits without calling stop()
// (a crashed test run must not leave an apiserver behind).
const live = new Set<ProcessGroup>();

// A process killed by SIGKILL runs no exit hook, and Node cannot ask the kernel to signal its
// children when it dies (PR_SET_PDEATHSIG). So each group has a watchdog: a shell in a session
// of its own (a terminal's Ctrl-C or a kill of this process group does not reach it) reading
// the group's pids and directory on a pipe from this process. When the pipe closes without a
// "done" line, this process is gone without stopping the group: the watchdog stops the
// components (SIGTERM, SIGKILL after 5 s) and removes the directory. Nothing of it is on its
// command line but this script: the directory is sent on the pipe.
const WATCHDOG = `# chaoskit process group watchdog
pids=; dir=
while read -r word value; do
  case "$word" in
    pid) pids="$pids $value" ;;
    dir) dir=$value ;;
    done) exit 0 ;;
  esac
done
alive() { for p in $pids; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
[ -n "$pids" ] && kill -TERM $pids 2>/dev/null
i=0; while alive && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
[ -n "$dir" ] && rm -rf -- "$dir"
exit 0`;

function startWatchdog(dir: string): ChildProcess {
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // It must not keep this process alive, and a watchdog that died must not crash it.
  watchdog.unref();
  watchdog.stdin?.on('error', () => {});
  (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
  watchdog.stdin?.write(`dir ${dir}\n`);
  return watchdog;
}

let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of live) group.killNow();
  });
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The control-plane processes of one cluster, started in order and stopped in reverse. Their
 * logs go to `logDir`, the group's scratch directory: its owner removes it after stop(), and the
 * group's watchdog removes it if this process dies without stopping the group.
 */
export class ProcessGroup {
  private readonly members: Member[] = [];
  private readonly watchdog: ChildProcess;

  constructor(private readonly logDir: string) {
    installExitHook();
    live.add(this);
    this.watchdog = startWatchdog(logDir);
  }

  get pids(): number[] {
    return this.members.map((m) => m.child.pid).filter((p): p is number => typeof p === 'number');
  }

  pidOf(name: string): number {
    const pid = this.members.find((m) => m.name === name)?.child.pid;
    if (pid === undefined) throw new Error(`${name} has no process`);
    return pid;
  }

  get logFiles(): Record<string, string> {
    return Object.fromEntries(this.members.map((m) => [m.name, m.logFile]));
  }

  start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
    this.members.push(this.spawn(name, command, args, env));
  }

  private spawn(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Member {
    const logFile = join(this.logDir, `${name}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(command, args, { stdio: ['ignore', fd, fd], env });
    closeSync(fd);
    if (child.pid !== undefined) this.watchdog.stdin?.write(`pid ${child.pid}\n`);
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    return { name, child, logFile, exited, command, args, env };
  }

  /**
   * Stops one component (SIGTERM, SIGKILL after the grace period) and, after `downMs`, starts it
   * again with the same arguments, data and ports: an apiserver restart as operators see one.
   */
  async restart(name: string, downMs = 0, graceMs = 5000): Promise<void> {
    const i = this.members.findIndex((m) => m.name === name);
    const m = this.members[i];
    if (!m) throw new Error(`no component named ${name}`);
    m.child.kill('SIGTERM');
    const timer = setTimeout(() => m.child.kill('SIGKILL'), graceMs);
    await m.exited;
    clearTimeout(timer);
    if (downMs > 0) await delay(downMs);
    this.members[i] = this.spawn(m.name, m.command, m.args, m.env);
  }

  /** Throws with the component's log tail when one of the processes has already exited. */
  assertRunning(): void {
    for (const m of this.members) {
      if (m.child.exitCode !== null || m.child.signalCode !== null) {
        throw new Error(
          `${m.name} exited (${m.child.exitCode ?? m.child.signalCode}) during start-up\n--- ${m.name} log (last lines) ---\n${this.tail(m.name, 20)}`,
        );
      }
    }
  }

  tail(name: string, lines = 30): string {
    const m = this.members.find((x) => x.name === name);
    if (!m) return '';
    try {
      return readFileSync(m.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** SIGTERM in reverse start order, SIGKILL after a grace period; resolves when all are gone. */
  async stop(graceMs = 5000): Promise<void> {
    for (const m of [...this.members].reverse()) {
      if (m.child.exitCode !== null || m.child.signalCode !== null) continue;
      m.child.kill('SIGTERM');
      const timer = setTimeout(() => m.child.kill('SIGKILL'), graceMs);
      await m.exited;
      clearTimeout(timer);
    }
    live.delete(this);
    this.watchdog.stdin?.end('done\n');
  }

  killNow(): void {
    for (const m of this.members) {
      if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    }
  }
}

/** Waits for `check`; on a timeout the error carries the tail of `component`, which owes it. */
export async function waitFor(
  what: string,
  component: string,
  group: ProcessGroup,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  await until(what, check, { timeoutMs, intervalMs: 200, alive: () => group.assertRunning() }).catch(
    (err: Error) => {
      if (!err.message.startsWith('timed out')) throw err;
      throw new Error(`${err.message}\n--- ${component} log (last lines) ---\n${group.tail(component, 20)}`);
    },
  );
}

/** GET on loopback; true on a 200. Used only for start-up readiness checks. */
export function httpOk(url: string, tls?: { ca: Buffer; token: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const req = tls
      ? httpsRequest(url, { ca: tls.ca, headers: { authorization: `Bearer ${tls.token}` }, timeout: 2000 })
      : httpRequest(url, { timeout: 2000 });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

// Components talk to each other on loopback only; a proxy from the environment must not
// capture those connections.
export const loopbackEnv = {
  ...process.env,
  NO_PROXY: '127.0.0.1,localhost',
  no_proxy: '127.0.0.1,localhost',
  HTTP_PROXY: '',
  HTTPS_PROXY: '',
  http_proxy: '',
  https_proxy: '',
};

/**
 * Whether process `pid` itself listens on TCP `port` (Linux's /proc: a listening socket on the
 * port, held open by the process). A component that lost its port lists none: not for an
 * outgoing connection's source port, nor for another process's listener, which would answer a
 * mere connect.
 */
export function listensOn(pid: number, port: number): boolean {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      // State 0A is LISTEN.
      if (local?.endsWith(`:${hexPort}`) && state === '0A' && inode) inodes.add(`socket:[${inode}]`);
    }
  }
  if (inodes.size === 0) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
