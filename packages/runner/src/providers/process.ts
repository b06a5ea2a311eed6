// Chaos Toolkit's `process` provider (chaostoolkit-lib 1.45.0): runs a local executable.
//
// - `path` is resolved like Python's `shutil.which(os.path.expanduser(path))`: `~` expands
//   to the home directory; a path with a `/` must be an executable file itself; a bare name
//   is looked up on PATH. It is not substituted.
// - `arguments` (substituted with the configuration and secrets; deliberately always, where
//   upstream skips substitution when both are empty, so `$$` always means `$`):
//   a string runs through `/bin/sh -c "<resolved path> <arguments>"` (shell expansion applies;
//   the resolved path is single-quoted, so a path with spaces works); a list is the argv after
//   dropping null and ''; a mapping (deprecated) is flattened to key, value pairs with the same
//   filtering. Items are written as strings the JSON way (`true`, `{"a":1}`), not Python's.
// - `timeout` (seconds, > 0): the process (and its process group) is killed and the activity
//   fails with `process activity took too long to complete`.
// - The environment is inherited (or `opts.env`); stdin is closed. Output is decoded as UTF-8
//   (invalid bytes become U+FFFD rather than failing). A non-zero exit is not a failure;
//   a process killed by a signal reports `-<signal number>` as its status, like Python.
// - An aborted `opts.signal` kills the process group and rejects with the signal's reason.

import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { homedir, constants as osConstants } from 'node:os';
import { delimiter, join } from 'node:path';
import { ActivityFailed } from '@chaoskit/core';
import { renderForSubstitution, substitute } from '@chaoskit/core/runner';

type Configuration = Record<string, unknown> | null | undefined;
type Secrets = Record<string, Record<string, unknown>> | null | undefined;

/** A process provider as an experiment declares it: its values are checked here, as it runs. */
export interface ProcessProvider {
  type?: 'process';
  /** An executable: a path, or a name looked for on PATH. */
  path?: unknown;
  /** A string (given to /bin/sh after the path), a list, or a mapping (`--key value`). */
  arguments?: unknown;
  /** Seconds. */
  timeout?: unknown;
}

export interface ProcessOptions {
  configuration?: Configuration;
  secrets?: Secrets;
  signal?: AbortSignal;
  /** Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface ProcessResult {
  status: number;
  stdout: string;
  stderr: string;
}

export type Resolution = { path: string } | { problem: 'not-found' | 'not-executable' };

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function expandUser(path: string, env: NodeJS.ProcessEnv): string {
  if (path !== '~' && !path.startsWith('~/')) return path;
  return (env.HOME || homedir()) + path.slice(1);
}

function check(candidate: string): 'ok' | 'not-found' | 'not-executable' {
  try {
    if (!statSync(candidate).isFile()) return 'not-found';
  } catch {
    return 'not-found';
  }
  try {
    accessSync(candidate, constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

/** Where `path` runs from, as `which` finds it, or why it cannot run. */
export function resolveExecutable(path: string, env: NodeJS.ProcessEnv = process.env): Resolution {
  const expanded = expandUser(path, env);
  if (expanded.includes('/')) {
    const state = check(expanded);
    return state === 'ok' ? { path: expanded } : { problem: state };
  }
  let sawNotExecutable = false;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir || '.', expanded);
    const state = check(candidate);
    if (state === 'ok') return { path: candidate };
    if (state === 'not-executable') sawNotExecutable = true;
  }
  return { problem: sawNotExecutable ? 'not-executable' : 'not-found' };
}

/** The first problem with a process provider, or undefined. */
export function validateProcessProvider(
  provider: unknown,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (!isMapping(provider)) return 'a process provider must be a mapping';
  const { path, arguments: args, timeout } = provider;
  if (typeof path !== 'string' || !path) return 'a process activity must have a path';
  const resolved = resolveExecutable(path, env);
  if ('problem' in resolved) {
    return resolved.problem === 'not-executable'
      ? `no access permission to '${path}' (not executable)`
      : `path '${path}' cannot be found (not an executable file, nor on PATH)`;
  }
  if (
    args !== undefined &&
    args !== null &&
    typeof args !== 'string' &&
    !Array.isArray(args) &&
    !isMapping(args)
  ) {
    return `process activity arguments must be a string, a list or a mapping, got ${typeof args}`;
  }
  if (timeout !== undefined && timeout !== null && !(typeof timeout === 'number' && timeout >= 0)) {
    return `process activity timeout must be a number of seconds, got ${JSON.stringify(timeout)}`;
  }
  return undefined;
}

/** `'text'` for `/bin/sh`. */
const shQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

function argv(args: unknown): string[] {
  const items = isMapping(args) ? Object.entries(args).flat() : (args as unknown[]);
  return items
    .filter((item) => item !== null && item !== undefined && item !== '')
    .map(renderForSubstitution);
}

/** Runs a process provider: `{status, stdout, stderr}`; a non-zero exit is not an error. */
export async function runProcess(
  provider: ProcessProvider,
  opts: ProcessOptions = {},
): Promise<ProcessResult> {
  const env = opts.env ?? process.env;
  const { signal } = opts;
  signal?.throwIfAborted();
  const raw = provider.path;
  if (typeof raw !== 'string' || !raw) throw new ActivityFailed('a process activity must have a path');
  const resolved = resolveExecutable(raw, env);
  if ('problem' in resolved) {
    throw new ActivityFailed(
      resolved.problem === 'not-executable'
        ? `process activity: no access permission to '${raw}' (not executable)`
        : `process activity: path '${raw}' cannot be found (not an executable file, nor on PATH)`,
    );
  }
  const args = substitute(provider.arguments ?? [], opts.configuration, opts.secrets);
  let command: string;
  let commandArgs: string[];
  if (typeof args === 'string') {
    command = '/bin/sh';
    commandArgs = ['-c', `${shQuote(resolved.path)} ${args}`];
  } else if (Array.isArray(args) || isMapping(args)) {
    command = resolved.path;
    commandArgs = argv(args);
  } else {
    throw new ActivityFailed(
      `process activity arguments must be a string, a list or a mapping, got ${args === null ? 'null' : typeof args}`,
    );
  }
  const timeout = provider.timeout;
  const timeoutMs = typeof timeout === 'number' && timeout > 0 ? timeout * 1000 : undefined;

  return new Promise<ProcessResult>((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout kills whatever the shell started too.
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let failure: (() => unknown) | undefined;
    let settled = false;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            failure ??= () => new ActivityFailed('process activity took too long to complete');
            killGroup();
          }, timeoutMs);
    const onAbort = (): void => {
      failure ??= () => signal?.reason ?? new Error('aborted');
      killGroup();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };

    child.on('error', (error) => {
      if (settled) return;
      finish();
      reject(
        new ActivityFailed(`process activity: could not run '${raw}': ${error.message}`, { cause: error }),
      );
    });
    child.on('close', (code, killedBy) => {
      if (settled) return;
      finish();
      if (failure) {
        reject(failure());
        return;
      }
      const status = code ?? (killedBy ? -(osConstants.signals[killedBy] ?? 1) : -1);
      resolve({
        status,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}
