// The duration text of Istio's `delay.fixedDelay`.
//
// Istio 1.30's VirtualService CRD types fixedDelay as a string with one rule,
// `duration(self) >= duration('1ms')`; CEL's duration() is Go's time.ParseDuration. So the
// API server accepts exactly the strings Go parses to at least one millisecond: '5s', '500ms',
// '1.5s', '1m', '1h30m', '+2s', '.5s', '250000us'. istiod's own validation then refuses a
// duration that is not a whole number of milliseconds ('1.5ms'), which the CRD lets through
// (a CRD-only cluster stores it; a real mesh ignores the route). We refuse it up front too.

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek small letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const LIMIT = 1n << 63n;
export const NANOS_PER_MS = 1_000_000n;

export class DurationSyntaxError extends Error {}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Go's `time.ParseDuration`, to the nanosecond (a bigint, as Go's int64): a sign, then one or
 * more decimal numbers each with a unit (ns, us, µs, ms, s, m, h), or the bare "0". Throws
 * DurationSyntaxError where Go returns an error (syntax, unknown unit, int64 overflow).
 */
export function parseGoDuration(text: string): bigint {
  const invalid = (why: string) => new DurationSyntaxError(`${why} in duration "${text}"`);
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid('no number');
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid(`unexpected '${s[0]}'`);
    // [0-9]*
    let i = 0;
    let whole = 0n;
    for (; isDigit(s[i]); i++) {
      if (whole > LIMIT / 10n) throw invalid('overflow');
      whole = whole * 10n + BigInt(s.charCodeAt(i) - 48);
      if (whole > LIMIT) throw invalid('overflow');
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)? — digits beyond int64 precision are read and dropped, as Go does.
    let fraction = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (fraction > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const next = fraction * 10n + BigInt(s.charCodeAt(j) - 48);
        if (next > LIMIT) {
          overflow = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid('a lone "."');
    // The unit: everything up to the next digit or ".".
    let k = 0;
    while (k < s.length && !(s[k] === '.' || isDigit(s[k]))) k++;
    if (k === 0) throw invalid('missing unit');
    const name = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS[name];
    if (unit === undefined) throw invalid(`unknown unit "${name}"`);
    if (whole > LIMIT / unit) throw invalid('overflow');
    let value = whole * unit;
    if (fraction > 0n) {
      // Go computes the fractional part in float64; so do we, to round the same way.
      value += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (value > LIMIT) throw invalid('overflow');
    }
    total += value;
    if (total > LIMIT) throw invalid('overflow');
  }
  if (neg) return -total;
  if (total > LIMIT - 1n) throw invalid('overflow');
  return total;
}

/** What `fixed_delay` accepts, in words (used in refusals). */
export const FIXED_DELAY_ACCEPTED =
  "a duration of at least 1ms in whole milliseconds, written as Istio's fixedDelay is (Go duration text: a number and a unit ns, us, ms, s, m or h, repeated, e.g. '5s', '500ms', '1.5s', '1m', '1h30m')";

/** Why `text` is not a fixedDelay the mesh accepts, or undefined when it is one. */
export function fixedDelayProblem(text: string): string | undefined {
  let nanos: bigint;
  try {
    nanos = parseGoDuration(text);
  } catch (err) {
    return (err as Error).message;
  }
  if (nanos < NANOS_PER_MS) return `"${text}" is shorter than 1ms`;
  if (nanos % NANOS_PER_MS !== 0n) return `"${text}" is not a whole number of milliseconds`;
  return undefined;
}
