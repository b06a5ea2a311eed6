// The cluster package's one poll, for its start-up and its tests. It cannot use core's
// pollUntil: core's tests run on this package's clusters, so this package sits below core.

import { setTimeout as delay } from 'node:timers/promises';

export interface UntilOptions {
  /** Default 30 s. */
  timeoutMs?: number;
  /** The pause between checks; default 100 ms. */
  intervalMs?: number;
  /** Called before each check; it throws when what is awaited has died, which ends the wait. */
  alive?: () => void;
}

/**
 * Polls `check` until it returns something truthy, and returns that; a check that throws counts
 * as not yet (its error ends the timeout's message). Past the timeout, fails with "timed out
 * after …s waiting for <what>".
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeout: number | UntilOptions = 30_000,
  intervalMs = 100,
): Promise<T> {
  const options = typeof timeout === 'number' ? { timeoutMs: timeout, intervalMs } : timeout;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    options.alive?.();
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const why = last === undefined ? '' : `: ${(last as Error).message ?? String(last)}`;
      throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${why}`);
    }
    await delay(options.intervalMs ?? 100);
  }
}
