// Waiting, the one way: Node's timers/promises for pauses, one poll for conditions the API
// cannot be watched for, and every wait ends at once, with Aborted, when its signal aborts.

import { setTimeout as delay } from 'node:timers/promises';
import { Aborted, ActivityFailed } from '../errors/errors.js';

/** Throws Aborted (its cause the signal's reason) when `signal` has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Aborted(signal.reason);
}

/** A pause of `ms`; Aborted as soon as `signal` aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw new Aborted(signal.reason);
    throw err;
  }
}

/** `promise`, or Aborted as soon as `signal` aborts (the promise itself goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Aborted(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Aborted(signal.reason));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export interface PollOptions {
  /** What is waited for, in words, for the timeout's message. */
  what: string;
  timeoutMs: number;
  /** The pause between checks (ms), or by attempt (from 1); default 100. */
  intervalMs?: number | ((attempt: number) => number);
  signal?: AbortSignal;
}

/**
 * Checks until `check` gives something truthy, and returns it; a check that throws counts as
 * not yet (its error ends the timeout's message). For what cannot be watched (an HTTP endpoint,
 * a process): the cluster's objects are waited for with a watch (`watchUntil`). Past the timeout:
 * ActivityFailed "timed out after …s waiting for <what>".
 */
export async function pollUntil<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: PollOptions,
): Promise<T> {
  const { signal } = options;
  const deadline = Date.now() + options.timeoutMs;
  let last: unknown;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal);
    try {
      const value = await check();
      if (value) return value;
      last = undefined;
    } catch (err) {
      last = err;
    }
    throwIfAborted(signal);
    const left = deadline - Date.now();
    if (left <= 0) {
      const why = last === undefined ? '' : `: ${(last as Error).message ?? String(last)}`;
      throw new ActivityFailed(
        `timed out after ${options.timeoutMs / 1000}s waiting for ${options.what}${why}`,
        {
          ...(last === undefined ? {} : { cause: last }),
        },
      );
    }
    const interval = options.intervalMs ?? 100;
    await sleep(Math.min(left, typeof interval === 'function' ? interval(attempt) : interval), signal);
  }
}
