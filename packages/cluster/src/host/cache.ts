import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

export type ProgressSink = (line: string) => void;

/** Where built binaries and fetched files are kept: $CHAOSKIT_CACHE, else ~/.cache/chaoskit. */
export function cacheDir(): string {
  return (
    process.env.CHAOSKIT_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'chaoskit')
  );
}

// proper-lockfile keeps the lock fresh while we hold it and treats a lock not refreshed for
// `stale` ms as abandoned, so a build killed half-way never blocks the next one for long.
const lockOptions = () => ({ lockfilePath: join(cacheDir(), '.build.lock'), stale: 30_000, realpath: false });

/** Whether another process is building into the cache right now. */
export async function cacheBusy(): Promise<boolean> {
  await mkdir(cacheDir(), { recursive: true });
  return lockfile.check(cacheDir(), lockOptions());
}

/**
 * Runs `work` holding the cache's build lock, so that two processes (two test runs, two
 * checkouts) never build the same thing at once: the second waits, then finds it built.
 */
export async function withCacheLock<T>(work: () => Promise<T>, progress: ProgressSink): Promise<T> {
  await mkdir(cacheDir(), { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(cacheDir(), lockOptions());
  } catch (err) {
    if ((err as { code?: string }).code !== 'ELOCKED') throw err;
    progress(`chaoskit: waiting for another chaoskit process that is building into ${cacheDir()}`);
    release = await lockfile.lock(cacheDir(), {
      ...lockOptions(),
      // Up to an hour: a cold build of the control plane takes minutes on a small machine.
      retries: { retries: 3600, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
    });
  }
  try {
    return await work();
  } finally {
    await release();
  }
}
