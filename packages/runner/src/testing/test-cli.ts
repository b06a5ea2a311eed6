// Test-only (left out of the build): the `chaoskit` command as users run it, the bundle built in
// dist/bundle/ (the package's bin, D149); with CHAOSKIT_TEST_CLI=single, the single file built in
// dist/single/ (`npm run single -w @chaoskit/runner` first, D157), for the whole suite to run on it.
import {
  type ChildProcess,
  type ExecFileOptions,
  execFile,
  type SpawnOptions,
  spawn,
} from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The bundle's entry (`npm run build` first). */
export const cli = fileURLToPath(new URL('../../dist/bundle/chaoskit.mjs', import.meta.url));
/** The single-file command (`npm run single -w @chaoskit/runner` first). */
export const single = fileURLToPath(new URL('../../dist/single/chaoskit', import.meta.url));

/** The command line that starts `chaoskit`: the executable first. */
export const chaoskitCommand: readonly string[] =
  process.env.CHAOSKIT_TEST_CLI === 'single' ? [single] : [process.execPath, cli];

/** What a process did: its exit code (1 when it died of a signal), stdout and stderr. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file` to its end; never rejects. */
export function exec(file: string, args: string[], options: ExecFileOptions = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs `chaoskit <args>` (the built command, on this Node) to its end. */
export function runCli(args: string[], options: ExecFileOptions = {}): Promise<Outcome> {
  const [file, ...prefix] = chaoskitCommand;
  return exec(file!, [...prefix, ...args], options);
}

/** Starts `chaoskit <args>` (the built command, on this Node). */
export function spawnCli(args: string[], options: SpawnOptions = {}): ChildProcess {
  const [file, ...prefix] = chaoskitCommand;
  return spawn(file!, [...prefix, ...args], options);
}

/** Runs `chaoskit <args>` on a terminal (`script` gives it one), answering `answer` to its question. */
export function runOnTerminal(
  args: string[],
  answer: string,
  options: ExecFileOptions = {},
): Promise<Outcome> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [...chaoskitCommand, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = execFile(
      'script',
      ['-q', '-e', '-c', command, '/dev/null'],
      { ...options, encoding: 'utf8' },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(`${answer}\n`);
  });
}
