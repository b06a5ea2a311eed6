import { execFile, execFileSync } from 'node:child_process';

/** Runs a command; rejects with its stderr (the part that says what went wrong). */
export function run(command: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { timeout: 120_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err) {
          const why = String(stderr).trim() || err.message;
          reject(new Error(`${command} ${args.join(' ')}: ${why}`, { cause: err }));
        } else resolve(String(stdout));
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The same, synchronous and ignoring failures: for clean-up while the process exits. */
export function runQuietlySync(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  } catch {
    // Best effort: what is gone already is fine.
  }
}

/** `ip` inside a network namespace (or on the host). */
export const ip = (netns: string | undefined, ...args: string[]) =>
  run('ip', netns ? ['-n', netns, ...args] : args);
