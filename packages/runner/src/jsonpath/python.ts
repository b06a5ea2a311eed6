// How jsonpath2 sees JSON values: through Python's types and operators. A JSON document
// parsed by Python holds dict, list, str, int or float, bool and None; bool is a subclass of
// int, so `true` is 1 wherever jsonpath2 asks for a number (`==`, `<`, an index) — chaoslib's
// results depend on it, so these helpers reproduce it on JavaScript values.

import { equalBy, isMapping } from './equal.js';

/** Python's `isinstance(value, (int, float))`: booleans are numbers there. */
const isNumeric = (value: unknown): value is number | boolean =>
  typeof value === 'number' || typeof value === 'boolean';

/**
 * Python's `isinstance(value, int)` (booleans included) as the number, else undefined. A
 * number of the document that is whole counts as an int: JavaScript keeps no difference
 * between `1` and `1.0` (D161).
 */
export function pythonInt(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** Python's `==` on JSON values: `true == 1`, `1 == 1.0`, lists and dicts compared deeply. */
export const pythonEqual = equalBy((a, b) =>
  isNumeric(a) && isNumeric(b) ? Number(a) === Number(b) : a === b,
);

/** jsonpath2's `<`, `<=`, `>`, `>=`: numbers (booleans included) only, anything else false. */
export function pythonOrder(a: unknown, b: unknown, test: (x: number, y: number) => boolean): boolean {
  return isNumeric(a) && isNumeric(b) && test(Number(a), Number(b));
}

/** Python's `bool(value)`: false, 0, "", [], {} and None are false. */
export function pythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** The code points of a string: Python indexes and measures strings by them. */
export const codePoints = (text: string): string[] => Array.from(text);

/** Python's `range(start, end, step)`, bounded to the indices a list of `length` can hold. */
export function* pythonRange(start: number, end: number, step: number, length: number): Generator<number> {
  if (step > 0) {
    for (let i = start; i < Math.min(end, length); i += step) yield i;
  } else {
    // Below -length an index finds nothing: stop there rather than count down to `end`.
    let i = start;
    if (i > length - 1) i -= Math.ceil((i - (length - 1)) / -step) * -step;
    for (; i > Math.max(end, -length - 1); i += step) yield i;
  }
}

/** Python's `text[start:end]` on code points (negative bounds count from the end). */
export function pythonSubstring(text: string, start: number, end?: number): string {
  const chars = codePoints(text);
  const bound = (n: number) => Math.min(Math.max(n < 0 ? n + chars.length : n, 0), chars.length);
  return chars.slice(bound(start), end === undefined ? chars.length : bound(end)).join('');
}
