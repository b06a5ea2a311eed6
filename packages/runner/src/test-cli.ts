// Test-only (left out of the build): the `chaoskit` command as users run it, the bundle built in
// dist/bundle/ (the package's bin, D149).
import { type ExecFileOptions, execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built command (`npm run build` first). */
export const cli = fileURLToPath(new URL('../dist/bundle/chaoskit.mjs', import.meta.url));

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
  return exec(process.execPath, [cli, ...args], options);
}

/** Runs `chaoskit <args>` on a terminal (`script` gives it one), answering `answer` to its question. */
export function runOnTerminal(
  args: string[],
  answer: string,
  options: ExecFileOptions = {},
): Promise<Outcome> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, cli, ...args].map(quote).join(' ');
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
