// How one execution is measured: a whole process under GNU time (wall time from our clock, peak
// RSS from the kernel's accounting of the process and its children), its requests counted in
// the apiserver's audit log by the identity it ran as, and the time from its start to its first
// request. The audit log is read incrementally: a 5,000-pod cluster writes a lot of it.
import { spawn } from 'node:child_process';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The audit events of the bench's own identities, read as the apiserver appends them. */
export class AuditTail {
  #offset = 0;
  #rest = '';
  /** @type {Array<{ user: string, at: number, verb: string, resource?: string }>} */
  events = [];

  constructor(path, users) {
    this.path = path;
    this.users = new Set(users);
  }

  async read() {
    const file = await open(this.path, 'r');
    try {
      const { size } = await file.stat();
      // A smaller file is a new one: read it from its start.
      if (size < this.#offset) [this.#offset, this.#rest] = [0, ''];
      if (size <= this.#offset) return;
      const buffer = Buffer.alloc(size - this.#offset);
      await file.read(buffer, 0, buffer.length, this.#offset);
      this.#offset = size;
      const text = this.#rest + buffer.toString('utf8');
      const cut = text.lastIndexOf('\n');
      this.#rest = text.slice(cut + 1);
      for (const line of text.slice(0, cut).split('\n')) {
        if (!line) continue;
        const e = JSON.parse(line);
        if (e.stage !== 'ResponseComplete' || !this.users.has(e.user?.username)) continue;
        this.events.push({
          user: e.user.username,
          at: Date.parse(e.requestReceivedTimestamp),
          verb: e.verb,
          resource: e.objectRef?.resource,
        });
      }
    } finally {
      await file.close();
    }
  }

  /** The events of `user` from `from` to `to` (ms since epoch). */
  async between(user, from, to) {
    // The apiserver writes an event when the response completes: give it a moment.
    await new Promise((r) => setTimeout(r, 250));
    await this.read();
    return this.events.filter((e) => e.user === user && e.at >= from && e.at <= to + 250);
  }
}

/**
 * Runs `command` (through sh, for pipes) as a whole process: returns its wall time, peak RSS,
 * exit code and output. `measure.seconds` is replaced by the process's own figure when it
 * prints one (`{"seconds": …}` on its last line: the in-process runs).
 */
export async function measureProcess(command, { env, cwd, scratch, limitSeconds }) {
  const timeFile = join(scratch, `time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const started = Date.now();
  const t0 = performance.now();
  let stopped = false;
  const { code, stdout, stderr } = await new Promise((resolve) => {
    const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', '%M', 'sh', '-c', command], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own: past the limit, the command and its children are killed together.
      detached: limitSeconds !== undefined,
    });
    const limit =
      limitSeconds === undefined
        ? undefined
        : setTimeout(() => {
            stopped = true;
            process.kill(-child.pid, 'SIGKILL');
          }, limitSeconds * 1000);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (status) => {
      clearTimeout(limit);
      resolve({ code: status ?? 1, stdout: out, stderr: err });
    });
  });
  if (stopped) return { code, stdout, stderr, stopped, started, ended: Date.now() };
  const seconds = (performance.now() - t0) / 1000;
  const ended = Date.now();
  const timeOutput = await readFile(timeFile, 'utf8').catch(() => '');
  await rm(timeFile, { force: true });
  const rssKb = Number(timeOutput.trim().split('\n').at(-1));
  const last = stdout.trim().split('\n').at(-1) ?? '';
  let inProcess;
  try {
    inProcess = JSON.parse(last).seconds;
  } catch {}
  return { code, stdout, stderr, seconds, inProcess, rssMb: rssKb / 1024, started, ended };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** min, median and max of the numbers given (undefined ones ignored). */
export function stats(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (xs.length === 0) return undefined;
  return { min: Math.min(...xs), median: median(xs), max: Math.max(...xs), n: xs.length };
}
