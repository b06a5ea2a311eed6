import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

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
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of live) group.killNow();
  });
}

/** The control-plane processes of one cluster, started in order and stopped in reverse. */
export class ProcessGroup {
  private readonly members: Member[] = [];

  constructor(private readonly logDir: string) {
    installExitHook();
    live.add(this);
  }

  get pids(): number[] {
    return this.members.map((m) => m.child.pid).filter((p): p is number => typeof p === 'number');
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
  }

  killNow(): void {
    for (const m of this.members) {
      if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
    }
  }
}
