// A probe call: the probe and its options, run when awaited (once) or by a matcher (as often as
// the matcher polls it). Whether it holds: it returned something other than `false`, without
// throwing — chaoskit's probes either return a boolean or fail with an error saying why.

import { setTimeout as sleep } from 'node:timers/promises';
import { type Duration, durationMs } from './duration.js';

const PROBE_CALL = Symbol.for('chaoskit.vitest.probe-call');

export interface ProbeCall<R = unknown> extends PromiseLike<R> {
  /** The probe, `module.name`. */
  readonly activity: string;
  /** Runs the probe once; `signal` stops it. */
  run(signal?: AbortSignal): Promise<R>;
}

export function probeCall<R>(activity: string, run: (signal?: AbortSignal) => Promise<R>): ProbeCall<R> {
  return {
    [PROBE_CALL]: true,
    activity,
    run,
    // biome-ignore lint/suspicious/noThenProperty: a probe call is awaited to run it once.
    then: (onFulfilled, onRejected) => run().then(onFulfilled, onRejected),
  } as ProbeCall<R>;
}

export function isProbeCall(value: unknown): value is ProbeCall {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PROBE_CALL] === true
  );
}

/** One look: whether the probe held, and why not. */
export interface Look {
  holds: boolean;
  /** What the probe returned, or the error it failed with. */
  why: string;
}

async function look(
  probe: ProbeCall,
  signal: AbortSignal,
  accept: (value: unknown) => boolean,
): Promise<Look> {
  try {
    const result = await probe.run(signal);
    return { holds: accept(result), why: `it returned ${JSON.stringify(result)}` };
  } catch (err) {
    return { holds: false, why: (err as Error).message };
  }
}

export interface PollResult {
  holds: boolean;
  /** Looks taken, and how many did not hold. */
  looks: number;
  failed: number;
  /** The last look's reason. */
  last: string;
  elapsedMs: number;
}

export interface PollOptions {
  /** Consecutive looks that must hold (default 1). */
  consecutive?: number;
  /** Pause between looks (default 250 ms): polling, not a wait for a guess. */
  intervalMs?: number;
  /** Whether what the probe returned holds (default: anything but `false`). */
  accept?: (value: unknown) => boolean;
}

/**
 * Looks at the probe until it holds `consecutive` times in a row, or `within` is over; each
 * look is stopped at the deadline.
 */
export async function poll(
  probe: ProbeCall,
  within: Duration,
  where: string,
  options: PollOptions = {},
): Promise<PollResult> {
  const limit = durationMs(within, where);
  const consecutive = options.consecutive ?? 1;
  const started = performance.now();
  const deadline = AbortSignal.timeout(Math.max(1, limit));
  let looks = 0;
  let failed = 0;
  let inRow = 0;
  let last = 'no look was taken';
  while (true) {
    const seen = await look(probe, deadline, options.accept ?? ((value) => value !== false));
    const elapsedMs = Math.round(performance.now() - started);
    // A look the deadline cut short saw nothing: the one before it is what is said.
    if (!seen.holds && deadline.aborted && looks > 0) return { holds: false, looks, failed, last, elapsedMs };
    looks++;
    last = seen.why;
    if (seen.holds) inRow++;
    else {
      failed++;
      inRow = 0;
    }
    if (inRow >= consecutive) return { holds: true, looks, failed, last, elapsedMs };
    if (deadline.aborted) return { holds: false, looks, failed, last, elapsedMs };
    await sleep(options.intervalMs ?? 250, undefined, { signal: deadline }).catch(() => undefined);
  }
}
