// Probes as assertions: `await expect(chaos.probe.x({...})).toHoldWithin('30s')`. The matchers
// poll the probe (each look stopped at the deadline); `.not` means it never held in the time.

import { expect } from 'vitest';
import type { Duration } from './duration.js';
import { isProbeCall, type PollOptions, type PollResult, poll } from './probe.js';

export interface RecoverOptions {
  /** Consecutive looks that must hold before it counts as recovered (default 3). */
  consecutive?: number;
}

declare module 'vitest' {
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> {
    /** The probe holds (returns something other than `false`, without an error) within `within`. */
    toHoldWithin(within: Duration): Promise<void>;
    /**
     * The probe holds within `within` and keeps holding for `consecutive` looks in a row (default
     * 3): recovered, not a flicker.
     */
    toRecoverWithin(within: Duration, options?: RecoverOptions): Promise<void>;
    /**
     * The probe returns `expected` within `within`: a value (compared as `toEqual` compares), an
     * asymmetric matcher (`expect.any(Number)`, `expect.objectContaining({…})`), or a predicate
     * of the value (`(pods) => pods >= 2`).
     */
    toReturnWithin(within: Duration, expected: unknown): Promise<void>;
  }
}

type MatcherThis = { isNot: boolean; equals(a: unknown, b: unknown): boolean };

function matcher(
  name: string,
  pollOptions: (extra: unknown, self: MatcherThis) => PollOptions,
  words: (r: PollResult) => string,
) {
  return async function (this: MatcherThis, received: unknown, within: Duration, extra?: unknown) {
    if (!isProbeCall(received))
      throw new TypeError(
        `${name}: expect() must be given a probe call, chaos.probe.<name>(options); received ${typeof received}`,
      );
    const result = await poll(received, within, name, pollOptions(extra, this));
    const looks = `${result.looks} look(s), ${result.failed} not holding, ${result.elapsedMs} ms`;
    return {
      pass: result.holds,
      message: () =>
        result.holds
          ? `expected ${received.activity} not to ${words(result)} within ${String(within)}, and it did (${looks})`
          : `expected ${received.activity} to ${words(result)} within ${String(within)}, and it did not (${looks}); the last look: ${result.last}`,
    };
  };
}

expect.extend({
  toHoldWithin: matcher(
    'toHoldWithin',
    () => ({}),
    () => 'hold',
  ),
  toRecoverWithin: matcher(
    'toRecoverWithin',
    (extra) => ({ consecutive: (extra as RecoverOptions | undefined)?.consecutive ?? 3 }),
    () => 'recover (hold on consecutive looks)',
  ),
  toReturnWithin: matcher(
    'toReturnWithin',
    (expected, self) => ({
      accept:
        typeof expected === 'function'
          ? (value) => (expected as (v: unknown) => unknown)(value) === true
          : (value) => self.equals(value, expected),
    }),
    () => 'return what was expected',
  ),
});
