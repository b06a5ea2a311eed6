// How long a matcher waits: `'30s'`, `'2m'`, `'1m30s'`, `'500ms'`, or milliseconds as a number.

/** A duration as the matchers take it. */
export type Duration = number | `${number}${'ms' | 's' | 'm' | 'h'}${string}`;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

/** Milliseconds of `duration`; throws naming `where` and what is accepted. */
export function durationMs(duration: Duration, where: string): number {
  if (typeof duration === 'number') {
    if (Number.isFinite(duration) && duration >= 0) return duration;
  } else if (typeof duration === 'string' && duration.length > 0) {
    let total = 0;
    PART.lastIndex = 0;
    let end = 0;
    for (let match = PART.exec(duration); match; match = PART.exec(duration)) {
      total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
      end = PART.lastIndex;
    }
    if (end === duration.length) return total;
  }
  throw new TypeError(
    `${where}: the duration must be milliseconds (a number of 0 or more) or a text such as '30s', '2m', '1m30s' or '500ms'; received ${JSON.stringify(duration)}`,
  );
}
