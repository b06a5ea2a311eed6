// Steady-state tolerances, as Chaos Toolkit (chaostoolkit-lib 1.45.0) validates and evaluates
// them.
//
// Deliberate semantics for JSON users (they differ from chaostoolkit-lib, whose Python
// equality leaks into the contract; D64 in docs/decisions.md), except for jsonpath tolerances:
//
// - Equality is strict: `true` does NOT equal `1`, `false` does not equal `0`, `"1"` does not
//   equal `1`. Numbers compare numerically (`1` and `1.0` are the same JSON number anyway).
//   Lists and mappings compare structurally (same items in the same order / same keys).
// - bool tolerance: `value === tolerance` (no `status` unwrapping).
// - integer tolerance: a mapping value with a `status` key compares its status (process and
//   http outputs), anything else compares the value itself. A non-integer number tolerance
//   (rejected by validation, reachable through substitution) is never met, as upstream.
// - string tolerance: substituted first (`"${expected}"` may become 3, a list, a mapping…) and
//   dispatched by its new type; still a string → `value === tolerance`.
// - list tolerance: a mapping value with `status` → status is one of the items; otherwise
//   exactly two numbers and a number value → inclusive range `lo <= value <= hi`; otherwise
//   membership. Upstream treats *any* two-item list as a range (`["a", "b"]` vs `"ab"` → true,
//   `[1, 5]` vs `"x"` → TypeError); here only two numbers against a number do.
// - regex `{type: regex, pattern, target?}`: JavaScript RegExp syntax, unanchored search; the
//   pattern is substituted; a non-string value is searched as its JSON text.
// - jsonpath `{type: jsonpath, path, target?, count?, expect?}`: chaoslib's own, exactly (D161):
//   the path is jsonpath2's (0.4.5) — its grammar, its results (a filter tests the node it
//   follows, `=` compares, Python's equality) — read by ./jsonpath/, and `count` and `expect`
//   compare as chaoslib does (`expect: 1` equals a found `true`). Validation refuses what
//   jsonpath2 refuses, with the path to write instead, and a slice step of 0 (chaoslib fails
//   on it).
// - range `{type: range, range: [lo, hi], target?}`: numbers and numeric strings (`"580.5"`);
//   booleans, null, mappings and non-numeric strings are never in range (upstream: `true` is 1,
//   null/mappings raise).
// - `target` (regex, jsonpath, range) picks `value[target]` from a mapping value, falling back
//   to the value itself when the key is absent (as upstream); a non-mapping value with a
//   `target` is not met (upstream raises).
// - probe `{type: probe, …}`: `ctx.runProbe(probe, value)`; no runProbe, a throw or a falsy
//   result → not met.
// - Whatever would raise in Python (type errors, bad patterns after substitution…) is "not
//   met" here: `withinTolerance` never throws.

import { compileRegex, regexProblem } from '@chaoskit/core';
import { substitute } from '@chaoskit/core/runner';
import { jsonPathProblem } from '../jsonpath/check.js';
import { equalBy, isMapping } from '../jsonpath/equal.js';
import { type FilterOnList, matchJsonPath } from '../jsonpath/evaluate.js';
import { parseJsonPath } from '../jsonpath/parse.js';
import { pythonEqual } from '../jsonpath/python.js';

type Json = Record<string, unknown>;
type Configuration = Record<string, unknown> | null | undefined;
type Secrets = Record<string, Record<string, unknown>> | null | undefined;

export interface ValidateToleranceOptions {
  /** Validates a `{type: probe}` tolerance as an activity (provider, arguments…). */
  validateProbe?(activity: Record<string, unknown>): string | undefined;
  /**
   * The tolerance as written, when `tolerance` is it after `${name}` substitution: chaoslib
   * reads a jsonpath tolerance's path before substituting, so that one must read too.
   */
  written?: unknown;
}

export interface ToleranceContext {
  configuration?: Configuration;
  secrets?: Secrets;
  /**
   * Runs a `{type: probe}` tolerance's provider with `value` (the probe output under test)
   * as its `value` argument; true when the tolerance is met.
   */
  runProbe?(probe: Record<string, unknown>, value: unknown): Promise<boolean>;
  /** Hears why a tolerance was not met, when there is more to say than "not met". */
  explain?(why: string): void;
}

const render = (value: unknown): string => {
  if (typeof value === 'string') return `'${value}'`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

const ALLOWED_TYPES =
  'must either be an integer, a string, a boolean or a pair of values for boundaries. It can also be ' +
  'a dictionary which is a probe activity definition that takes an argument called `value` with the ' +
  'value of the probe itself to be validated';

/**
 * The first problem with a tolerance, or undefined when it is valid. Every message starts with
 * `where` (e.g. "steady-state probe 'app-ok'").
 */
export function validateTolerance(
  tolerance: unknown,
  where: string,
  options: ValidateToleranceOptions = {},
): string | undefined {
  if (typeof tolerance === 'boolean' || typeof tolerance === 'string' || Array.isArray(tolerance)) {
    return undefined;
  }
  if (typeof tolerance === 'number') {
    if (Number.isInteger(tolerance)) return undefined;
    return `${where}: tolerance ${ALLOWED_TYPES} (got the non-integer number ${render(tolerance)})`;
  }
  if (!isMapping(tolerance)) {
    return `${where}: tolerance ${ALLOWED_TYPES} (got ${tolerance === null ? 'null' : typeof tolerance})`;
  }
  const type = tolerance.type;
  if (type === undefined) {
    return `${where}: a tolerance mapping must have a \`type\`: probe, regex, jsonpath or range`;
  }
  const target = tolerance.target;
  if (
    (type === 'regex' || type === 'jsonpath' || type === 'range') &&
    target !== undefined &&
    target !== null &&
    typeof target !== 'string'
  ) {
    return `${where}: ${type} tolerance target must be a string (the key of the output to check), got ${render(target)}`;
  }
  switch (type) {
    case 'probe': {
      if (!('provider' in tolerance) || tolerance.provider === undefined || tolerance.provider === null) {
        return `${where}: probe tolerance requires a provider`;
      }
      const problem = options.validateProbe?.(tolerance);
      return problem === undefined ? undefined : `${where}: probe tolerance: ${problem}`;
    }
    case 'regex':
      return validateRegex(tolerance, where);
    case 'jsonpath':
      return validateJsonPathTolerance(tolerance, where, options.written);
    case 'range':
      return validateRange(tolerance, where);
    default:
      return `${where}: tolerance type ${render(type)} is unsupported (probe, regex, jsonpath or range)`;
  }
}

function validateRegex(tolerance: Json, where: string): string | undefined {
  if (!('pattern' in tolerance)) return `${where}: regex tolerance must have a \`pattern\` key`;
  const pattern = tolerance.pattern;
  if (typeof pattern !== 'string') {
    return `${where}: tolerance pattern ${render(pattern)} has an invalid type (expected a string)`;
  }
  const problem = regexProblem(pattern);
  return problem
    ? `${where}: tolerance pattern ${render(pattern)} seems invalid: ${problem} (RE2 syntax: no backreferences or lookaround)`
    : undefined;
}

function validateJsonPathTolerance(tolerance: Json, where: string, written: unknown): string | undefined {
  if (!('path' in tolerance)) return `${where}: jsonpath tolerance must have a \`path\` key`;
  const path = tolerance.path;
  if (typeof path !== 'string') {
    return `${where}: tolerance JSON path ${render(path)} has an invalid type (expected a string)`;
  }
  if (!path.trim()) return `${where}: tolerance JSON path cannot be empty`;
  const refused = (text: string, problem: string) =>
    `${where}: tolerance.path ${render(text)} is not a JSONPath chaoslib reads (jsonpath2 0.4.5): ${problem}`;
  const problem = jsonPathProblem(path.trim());
  const asWritten = isMapping(written) ? written.path : undefined;
  if (typeof asWritten === 'string' && asWritten !== path) {
    // Said of the path as written, the one to fix — and never with the substituted values,
    // which may be secrets.
    const before = jsonPathProblem(asWritten.trim());
    if (before && problem) return refused(asWritten, before);
    if (before) {
      return `${refused(asWritten, before)} — chaoslib reads the path before it substitutes \${name}, so a \${name} goes inside a string in double quotes`;
    }
    if (problem) {
      return refused(
        asWritten,
        `not once its \${name} are substituted (a value in a string holds no " and no lone \\)`,
      );
    }
  }
  if (problem) return refused(path, problem);
  const count = tolerance.count;
  if (count !== undefined && count !== null && !(Number.isInteger(count) && (count as number) >= 0)) {
    return `${where}: jsonpath tolerance count must be an integer >= 0, got ${render(count)}`;
  }
  return undefined;
}

function validateRange(tolerance: Json, where: string): string | undefined {
  if (!('range' in tolerance)) return `${where}: range tolerance must have a \`range\` key`;
  const range = tolerance.range;
  if (!Array.isArray(range)) return `${where}: tolerance range must be a sequence, got ${render(range)}`;
  if (range.length !== 2) {
    return `${where}: tolerance range sequence must be made of two values, got ${range.length}`;
  }
  const [lower, upper] = range as [unknown, unknown];
  if (typeof lower !== 'number' || !Number.isFinite(lower)) {
    return `${where}: tolerance range lower boundary must be a number, got ${render(lower)}`;
  }
  if (typeof upper !== 'number' || !Number.isFinite(upper)) {
    return `${where}: tolerance range upper boundary must be a number, got ${render(upper)}`;
  }
  if (lower > upper) {
    return `${where}: tolerance range lower boundary ${lower} is greater than the upper boundary ${upper}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

/** Whether `value` (a probe's output) is within `tolerance`. Never throws. */
export async function withinTolerance(
  tolerance: unknown,
  value: unknown,
  ctx: ToleranceContext = {},
): Promise<boolean> {
  try {
    const resolved =
      typeof tolerance === 'string' ? substitute(tolerance, ctx.configuration, ctx.secrets) : tolerance;
    return await evaluate(resolved, value, ctx);
  } catch {
    return false;
  }
}

async function evaluate(tolerance: unknown, value: unknown, ctx: ToleranceContext): Promise<boolean> {
  if (typeof tolerance === 'boolean' || typeof tolerance === 'string') return value === tolerance;
  if (typeof tolerance === 'number') {
    if (!Number.isInteger(tolerance)) return false;
    if (isMapping(value) && Object.hasOwn(value, 'status')) return value.status === tolerance;
    return value === tolerance;
  }
  if (Array.isArray(tolerance)) return withinList(tolerance, value);
  if (!isMapping(tolerance)) return false;
  switch (tolerance.type) {
    case 'probe':
      if (!ctx.runProbe) return false;
      return Boolean(await ctx.runProbe(tolerance, value));
    case 'regex':
      return withinRegex(tolerance, value, ctx);
    case 'jsonpath':
      return withinJsonPath(tolerance, value, ctx);
    case 'range':
      return withinRange(tolerance, value);
    default:
      return false;
  }
}

function withinList(list: unknown[], value: unknown): boolean {
  if (isMapping(value) && Object.hasOwn(value, 'status')) {
    return list.some((item) => jsonEqual(item, value.status));
  }
  const [lower, upper] = list;
  if (
    list.length === 2 &&
    typeof lower === 'number' &&
    typeof upper === 'number' &&
    typeof value === 'number'
  ) {
    return lower <= value && value <= upper;
  }
  return list.some((item) => jsonEqual(item, value));
}

const NOT_FOUND = Symbol('not found');

/** `value[target]` per `target` (see the top of this file); NOT_FOUND when unusable. */
function pickTarget(tolerance: Json, value: unknown): unknown {
  const target = tolerance.target;
  if (target === undefined || target === null || target === '' || target === false || target === 0) {
    return value;
  }
  if (!isMapping(value)) return NOT_FOUND;
  const key = String(target);
  return Object.hasOwn(value, key) ? value[key] : value;
}

function withinRegex(tolerance: Json, value: unknown, ctx: ToleranceContext): boolean {
  const pattern = substitute(tolerance.pattern, ctx.configuration, ctx.secrets);
  if (typeof pattern !== 'string') return false;
  const picked = pickTarget(tolerance, value);
  if (picked === NOT_FOUND) return false;
  const text = typeof picked === 'string' ? picked : asText(picked);
  if (text === undefined) return false;
  return compileRegex(pattern).test(text);
}

function asText(value: unknown): string | undefined {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return JSON.stringify(value);
}

function withinJsonPath(tolerance: Json, value: unknown, ctx: ToleranceContext): boolean {
  const path = substitute(tolerance.path, ctx.configuration, ctx.secrets);
  if (typeof path !== 'string') return false;
  const parsed = parseJsonPath(path);
  let json = pickTarget(tolerance, value);
  if (json === NOT_FOUND) return false;
  if (json instanceof Uint8Array) json = Buffer.from(json).toString('utf8');
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json);
    } catch {
      // not JSON: the string itself is the document
    }
  }
  const onList: FilterOnList[] = [];
  const values = matchJsonPath(parsed, json, { onFilterOnList: (seen) => onList.push(seen) });
  // chaoslib's order: found at all, then `count`, then `expect` over both — compared with
  // Python's `==`, as chaoslib compares.
  let met = values.length > 0;
  const count = tolerance.count;
  if (count !== undefined && count !== null) met = pythonEqual(values.length, count);
  if (Object.hasOwn(tolerance, 'expect')) {
    const expect = substitute(tolerance.expect, ctx.configuration, ctx.secrets);
    met = pythonEqual(values, Array.isArray(expect) ? expect : [expect]);
  }
  const missed = onList.find((seen) => seen.itemsMatching > 0);
  if (!met && missed) {
    ctx.explain?.(
      `the filter [?(${missed.filter})] tested a list as a whole, as jsonpath2 does, and ${missed.itemsMatching} of its items pass it: put [*] before the filter to test the items`,
    );
  }
  return met;
}

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return undefined;
}

function withinRange(tolerance: Json, value: unknown): boolean {
  const range = tolerance.range;
  if (!Array.isArray(range) || range.length !== 2) return false;
  const lower = toNumber(range[0]);
  const upper = toNumber(range[1]);
  const picked = pickTarget(tolerance, value);
  const number = picked === NOT_FOUND ? undefined : toNumber(picked);
  if (lower === undefined || upper === undefined || number === undefined) return false;
  return lower <= number && number <= upper;
}

/** Structural equality of JSON values, strict on types (`true` ≠ `1`, `"1"` ≠ `1`). */
export const jsonEqual = equalBy((a, b) => a === b);
