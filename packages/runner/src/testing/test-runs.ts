// Test-only (left out of the build): `chaoskit run` as a real process, watched through the
// journal it writes as it goes, and stopped (SIGKILL, SIGTERM…) at a chosen point.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { cli } from './test-cli.js';

export interface Started {
  child: ChildProcess;
  journalPath: string;
  /** Resolves with the exit code (null after a signal) and stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
  /** Waits until `count` method activities succeeded (the journal says so); returns the run id. */
  methodDone(count: number): Promise<string>;
}

interface JournalSoFar {
  run_id?: string;
  run?: Array<{ status: string }>;
}

/** Starts `chaoskit run` on `experiment` (written to `dir/<name>.yaml`). */
export async function startRun(
  dir: string,
  name: string,
  experiment: unknown,
  options: { env: NodeJS.ProcessEnv; args?: string[] },
): Promise<Started> {
  const file = join(dir, `${name}.yaml`);
  const journalPath = join(dir, `${name}.journal.json`);
  await writeFile(file, dump(experiment));
  const child = spawn(
    process.execPath,
    [cli, 'run', file, '--journal-path', journalPath, ...(options.args ?? [])],
    {
      env: options.env,
      cwd: dir,
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  child.stdout?.resume();
  let gone = false;
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      gone = true;
      resolve({ code, stderr });
    }),
  );
  const methodDone = async (count: number): Promise<string> => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (gone) throw new Error(`the run ended before ${count} method activities were done:\n${stderr}`);
      if (Date.now() > deadline)
        throw new Error(`${count} method activities were not done within 90 s:\n${stderr}`);
      const journal: JournalSoFar = existsSync(journalPath)
        ? JSON.parse((await readFile(journalPath, 'utf8').catch(() => '')) || '{}')
        : {};
      const done = journal.run?.filter((r) => r.status === 'succeeded').length ?? 0;
      if (done >= count && journal.run_id) return journal.run_id;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, journalPath, exited, methodDone };
}

/** Runs `experiment` until `count` method activities are done, then kills it; returns the run id. */
export async function killedAfter(
  dir: string,
  name: string,
  experiment: unknown,
  count: number,
  options: { env: NodeJS.ProcessEnv; args?: string[] },
): Promise<string> {
  const run = await startRun(dir, name, experiment, options);
  const runId = await run.methodDone(count);
  run.child.kill('SIGKILL');
  await run.exited;
  return runId;
}
