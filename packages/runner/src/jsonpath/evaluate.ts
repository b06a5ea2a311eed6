// jsonpath2's matching (0.4.5), on JavaScript values: what `Path.match` yields, in its order.
// The walk follows jsonpath2's nodes: a filter yields the node it is applied to when its test
// holds; `..` applies the rest of the path to the node, then to each child, depth first; a
// wildcard goes through a mapping's values or a list's items, nothing else.

import { isMapping } from './equal.js';
import {
  codePoints,
  pythonEqual,
  pythonInt,
  pythonOrder,
  pythonRange,
  pythonSubstring,
  pythonTruthy,
} from './python.js';
import type { CallName, Comparison, Operand, Path, Selector, Step, Test } from './syntax.js';

/** A filter that tested a list and did not hold: its text, and how many of the items pass it. */
export interface FilterOnList {
  filter: string;
  itemsMatching: number;
}

export interface MatchOptions {
  /** Hears each filter that tested a list and did not hold (standard JSONPath's reading). */
  onFilterOnList?(seen: FilterOnList): void;
}

/** The values `path` finds in `document`, as jsonpath2's `[m.current_value for m in match()]`. */
export function matchJsonPath(path: Path, document: unknown, options: MatchOptions = {}): unknown[] {
  return [...new Matcher(document, options).path(path, document)];
}

const ORDER: Record<Exclude<Comparison, '=' | '!='>, (x: number, y: number) => boolean> = {
  '<': (x, y) => x < y,
  '<=': (x, y) => x <= y,
  '>': (x, y) => x > y,
  '>=': (x, y) => x >= y,
};

class Matcher {
  constructor(
    private readonly root: unknown,
    private readonly options: MatchOptions,
  ) {}

  *path(path: Path, current: unknown): Generator<unknown> {
    yield* this.steps(path.steps, 0, path.from === '$' ? this.root : current);
  }

  private *steps(steps: Step[], i: number, value: unknown): Generator<unknown> {
    const step = steps[i];
    if (!step) {
      yield value;
      return;
    }
    for (const node of step.descend ? this.descendants(value) : [value]) {
      for (const selector of step.selectors) {
        for (const found of this.select(selector, node)) yield* this.steps(steps, i + 1, found);
      }
    }
  }

  /** The node, then each child's descendants, in order. */
  private *descendants(value: unknown): Generator<unknown> {
    yield value;
    for (const child of children(value)) yield* this.descendants(child);
  }

  private *select(selector: Selector, value: unknown): Generator<unknown> {
    switch (selector.kind) {
      case 'name':
        if (isMapping(value) && Object.hasOwn(value, selector.name)) yield value[selector.name];
        return;
      case 'index':
        yield* at(value, selector.index);
        return;
      case 'slice':
        yield* this.slice(selector, value);
        return;
      case 'wildcard':
        yield* children(value);
        return;
      case 'filter':
        if (this.test(selector.test, value)) yield value;
        else if (Array.isArray(value) && this.options.onFilterOnList) {
          const itemsMatching = value.filter((item) => this.test(selector.test, item)).length;
          this.options.onFilterOnList({ filter: selector.text, itemsMatching });
        }
        return;
      case 'path':
        for (const key of this.path(selector.path, value)) {
          const index = pythonInt(key);
          if (index !== undefined) yield* at(value, index);
          else if (typeof key === 'string' && isMapping(value) && Object.hasOwn(value, key)) yield value[key];
        }
        return;
      case 'call':
        for (const args of this.product(selector.args, value)) yield* call(selector.name, value, args);
        return;
    }
  }

  private *slice(selector: Extract<Selector, { kind: 'slice' }>, value: unknown): Generator<unknown> {
    if (!Array.isArray(value)) return;
    const { length } = value;
    const { start, end, step = 1 } = selector;
    // As jsonpath2 computes the bounds (a start below -length becomes 0, an end does not).
    const from =
      start === undefined ? 0 : start < 0 ? (Math.abs(start) < length ? start + length : 0) : start;
    const to = end === undefined ? length : end < 0 ? end + length : end;
    // Python's range() refuses a step of 0: chaoslib fails there (validation refuses it first).
    if (step === 0) throw new Error('a slice step of 0');
    for (const index of pythonRange(from, to, step, length)) yield* at(value, index);
  }

  /** Each combination of the arguments' values (itertools.product), as jsonpath2 calls. */
  private *product(args: Operand[], current: unknown, i = 0, chosen: unknown[] = []): Generator<unknown[]> {
    const arg = args[i];
    if (!arg) {
      yield chosen;
      return;
    }
    const values =
      arg.kind === 'path'
        ? this.path(arg.path, current)
        : [arg.float ? new PythonFloat(arg.value as number) : arg.value];
    for (const value of values) yield* this.product(args, current, i + 1, [...chosen, value]);
  }

  private test(test: Test, current: unknown): boolean {
    switch (test.kind) {
      case 'and':
        return test.tests.every((t) => this.test(t, current));
      case 'or':
        return test.tests.some((t) => this.test(t, current));
      case 'not':
        return !this.test(test.test, current);
      case 'some':
        if (test.operand.kind === 'value') return pythonTruthy(test.operand.value);
        for (const _ of this.path(test.operand.path, current)) return true;
        return false;
      case 'compare': {
        const compare =
          test.op === '='
            ? pythonEqual
            : test.op === '!='
              ? (a: unknown, b: unknown) => !pythonEqual(a, b)
              : (a: unknown, b: unknown) => pythonOrder(a, b, ORDER[test.op as keyof typeof ORDER]);
        // One generator of the right values for all the left ones, as jsonpath2 has it: when
        // the right side is a path, only the first left value meets its values.
        const rights = this.operand(test.right, current);
        for (const left of this.operand(test.left, current)) {
          for (const right of rights) if (compare(left, right)) return true;
        }
        return false;
      }
    }
  }

  private operand(operand: Operand, current: unknown): Iterable<unknown> {
    return operand.kind === 'path' ? this.path(operand.path, current) : [operand.value];
  }
}

/**
 * A number written with a fraction or an exponent in the path (`charAt(1.0)`): Python reads it
 * as a float, which is no index.
 */
class PythonFloat {
  constructor(readonly value: number) {}
}

function* children(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) yield* value;
  else if (isMapping(value)) yield* Object.values(value);
}

/** jsonpath2's ArrayIndexSubscript: lists only, a negative index counts from the end. */
function* at(value: unknown, index: number): Generator<unknown> {
  if (!Array.isArray(value)) return;
  const i = index < 0 ? index + value.length : index;
  if (i >= 0 && i < value.length) yield value[i];
}

/** jsonpath2's callable subscripts; a call that does not apply yields nothing. */
function* call(name: CallName, value: unknown, args: unknown[]): Generator<unknown> {
  const ints = args.map((arg) => (arg instanceof PythonFloat ? undefined : pythonInt(arg)));
  const list = Array.isArray(value);
  const mapping = isMapping(value);
  switch (name) {
    case 'length':
      if (args.length === 0 && (list || typeof value === 'string')) {
        yield list ? value.length : codePoints(value as string).length;
      }
      return;
    case 'keys':
      if (args.length > 0) return;
      if (mapping) yield Object.keys(value);
      else if (list) yield value.map((_, i) => i);
      return;
    case 'values':
      if (args.length > 0) return;
      if (mapping) yield Object.values(value);
      else if (list) yield value;
      return;
    case 'entries':
      if (args.length > 0) return;
      if (mapping) yield Object.entries(value);
      else if (list) yield value.map((item, i) => [i, item]);
      return;
    case 'charAt': {
      const [i] = ints;
      if (typeof value !== 'string' || args.length !== 1 || i === undefined) return;
      const chars = codePoints(value);
      const j = i < 0 ? i + chars.length : i;
      if (j >= 0 && j < chars.length) yield chars[j];
      return;
    }
    case 'substring': {
      const [start, end] = ints;
      if (typeof value !== 'string' || start === undefined) return;
      if (args.length === 1) yield pythonSubstring(value, start);
      else if (args.length === 2 && end !== undefined) yield pythonSubstring(value, start, end);
      return;
    }
  }
}
