export const SINCE_ACCEPTED =
  'a whole number of seconds, 0 or more (e.g. 90 or "90"), a compact duration such as "60s", "2m", "1h30m" ' +
  'or "1d", or words such as "5 minutes", "5 min", "90 seconds", "1 hour 30 minutes", "3 days", "1 week", ' +
  'optionally followed by "ago" (units: seconds, minutes, hours, days, weeks); absolute dates are not supported';

const SECONDS = new Map<string, number>();
for (const [seconds, words] of [
  [1, ['s', 'sec', 'secs', 'second', 'seconds']],
  [60, ['m', 'min', 'mins', 'minute', 'minutes']],
  [3600, ['h', 'hr', 'hrs', 'hour', 'hours']],
  [86_400, ['d', 'day', 'days']],
  [604_800, ['w', 'wk', 'wks', 'week', 'weeks']],
] as const) {
  for (const word of words) SECONDS.set(word, seconds);
}

// `<number><unit>` parts separated by spaces, a comma or "and" (a trailing "ago" is removed first).
const DURATION = /^\d+\s*[a-z]+(?:(?:\s*,\s*|\s+and\s+|\s*)\d+\s*[a-z]+)*$/;
const PART = /(\d+)\s*([a-z]+)/g;

function durationSeconds(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // The length cap keeps the regular expressions' work small on hostile input.
  if (trimmed.length > 200) return undefined;
  const body = trimmed.replace(/\s+ago$/, '');
  if (!DURATION.test(body)) return undefined;
  let total = 0;
  for (const [, amount, word] of body.matchAll(PART)) {
    const unit = SECONDS.get(word!);
    if (unit === undefined) return undefined;
    total += Number(amount) * unit;
  }
  return total;
}

/**
 * `read_pod_logs`' `last` as an exact number of whole seconds (D16, docs/decisions.md), or
 * undefined when it is not one. 0 means no limit. Unlike 0.25.1's date parsing, nothing depends
 * on the clock, so the result is exact.
 */
export function sinceSeconds(value: string | number): number | undefined {
  const seconds =
    typeof value === 'number'
      ? Number.isInteger(value) && value >= 0
        ? value
        : undefined
      : typeof value === 'string'
        ? durationSeconds(value)
        : undefined;
  return seconds !== undefined && Number.isSafeInteger(seconds) ? seconds : undefined;
}
