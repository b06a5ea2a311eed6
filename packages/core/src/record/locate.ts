// Where a recorded change is, by what it is rather than by its position: a list item is named
// by a field that tells it from its siblings (`[name="r1"]`, `[match=[…]]`), so a route inserted
// above the faulted one does not send the revert to the wrong route (or leave the fault behind).
// Pointers are RFC 6901 JSON pointers whose list tokens may be such selectors.

import { same } from './pointers.js';

/** Fields that tell list items apart, tried in order: the first that is present and unique wins. */
const KEY_FIELDS = ['name', 'key', 'match', 'destination', 'route'] as const;

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeToken = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tokens of a pointer, unescaped. */
export function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1).map(unescapeToken);
}

/** A pointer from tokens. */
export function pointerOf(parts: readonly string[]): string {
  return parts.map((t) => `/${escapeToken(t)}`).join('');
}

/** A selector token: `[field=<JSON>]`, or `[#index/length]` when nothing tells the item apart. */
interface Selector {
  field?: string;
  value?: unknown;
  index?: number;
  length?: number;
}

function parseSelector(token: string): Selector | undefined {
  if (!token.startsWith('[') || !token.endsWith(']')) return undefined;
  const inner = token.slice(1, -1);
  const positional = /^#(\d+)\/(\d+)$/.exec(inner);
  if (positional) return { index: Number(positional[1]), length: Number(positional[2]) };
  const eq = inner.indexOf('=');
  if (eq <= 0) return undefined;
  try {
    return { field: inner.slice(0, eq), value: JSON.parse(inner.slice(eq + 1)) };
  } catch {
    return undefined;
  }
}

/** The token that names `list[index]` by what it is. */
function selectorFor(list: readonly unknown[], index: number): string {
  const item = list[index];
  if (isObject(item)) {
    for (const field of KEY_FIELDS) {
      if (!Object.hasOwn(item, field)) continue;
      const value = item[field];
      const twins = list.filter((other) => isObject(other) && same(other[field], value));
      if (twins.length === 1) return `[${field}=${JSON.stringify(value)}]`;
    }
  }
  return `[#${index}/${list.length}]`;
}

/**
 * `pointer` (with list indexes) as it names the same field by identity in `object`: each index
 * into a list becomes a selector. Indexes past the end (an item the write appends) stay as
 * they are: there is nothing there yet to name.
 */
export function identify(object: unknown, pointer: string): string {
  const out: string[] = [];
  let current: unknown = object;
  for (const token of tokens(pointer)) {
    if (Array.isArray(current) && /^\d+$/.test(token) && Number(token) < current.length) {
      out.push(selectorFor(current, Number(token)));
      current = current[Number(token)];
    } else {
      out.push(token);
      current = isObject(current) ? current[token] : undefined;
    }
  }
  return pointerOf(out);
}

export type Resolved = { pointer: string } | { problem: string };

/**
 * The concrete pointer (with indexes) of an identity pointer in `object` as it is now, or why it
 * cannot be found: the item it names is gone, or several items now match.
 */
export function resolve(object: unknown, pointer: string): Resolved {
  const out: string[] = [];
  let current: unknown = object;
  for (const token of tokens(pointer)) {
    const selector = isObject(current) && Object.hasOwn(current, token) ? undefined : parseSelector(token);
    if (selector && !Array.isArray(current))
      return { problem: `${pointerOf(out)}: the list that held the item is gone` };
    if (Array.isArray(current) && selector) {
      const list = current;
      let index: number;
      if (selector.field !== undefined) {
        const found = list.flatMap((item, i) =>
          isObject(item) &&
          Object.hasOwn(item, selector.field!) &&
          same(item[selector.field!], selector.value)
            ? [i]
            : [],
        );
        if (found.length !== 1)
          return {
            problem: `${pointerOf(out)}: ${found.length === 0 ? 'no' : `${found.length}`} item(s) with ${selector.field} ${JSON.stringify(selector.value)}`,
          };
        index = found[0]!;
      } else {
        // Nothing told the item apart when it was recorded: its place holds only while the list
        // keeps its length.
        if (list.length !== selector.length)
          return {
            problem: `${pointerOf(out)}: the list had ${selector.length} items and has ${list.length}, so item ${selector.index} cannot be told`,
          };
        index = selector.index!;
      }
      out.push(String(index));
      current = list[index];
    } else {
      out.push(token);
      current = isObject(current)
        ? current[token]
        : Array.isArray(current) && /^\d+$/.test(token)
          ? current[Number(token)]
          : undefined;
    }
  }
  return { pointer: pointerOf(out) };
}

/** Whether `a` is `b` or one of its ancestors. */
export function covers(a: string, b: string): boolean {
  return a === b || b.startsWith(`${a}/`);
}

/** Pointers ordered parents first (a restore must create a parent before its children). */
export function parentsFirst(pointers: readonly string[]): string[] {
  return [...pointers].sort((a, b) => tokens(a).length - tokens(b).length || a.localeCompare(b));
}
