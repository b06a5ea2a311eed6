// Objects as they were or will be: an object with recorded field values put back (what it held
// before a run), and what a merge patch makes of an object (what a write will leave).

import { parentsFirst, resolve, tokens } from './locate.js';
import type { FieldValue } from './pointers.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets (or removes) the value at a concrete pointer of `root`, creating missing parent objects. */
function put(root: Record<string, unknown>, pointer: string, field: FieldValue): void {
  const path = tokens(pointer);
  let parent: unknown = root;
  for (const token of path.slice(0, -1)) {
    if (Array.isArray(parent)) parent = parent[Number(token)];
    else if (isObject(parent)) {
      if (!isObject(parent[token]) && !Array.isArray(parent[token])) {
        if (!field.present) return;
        parent[token] = {};
      }
      parent = parent[token];
    } else return;
  }
  const last = path.at(-1);
  if (last === undefined) return;
  if (Array.isArray(parent)) {
    if (field.present) parent[Number(last)] = structuredClone(field.value);
    else parent.splice(Number(last), 1);
  } else if (isObject(parent)) {
    if (field.present) parent[last] = structuredClone(field.value);
    else delete parent[last];
  }
}

/**
 * `object` with `fields` (identity pointers) put back, parents first; a field that cannot be
 * located any more is left as it is.
 */
export function withFields<T>(object: T, fields: Readonly<Record<string, FieldValue>>): T {
  const copy = structuredClone(object) as Record<string, unknown>;
  for (const pointer of parentsFirst(Object.keys(fields))) {
    const at = resolve(copy, pointer);
    if ('pointer' in at) put(copy, at.pointer, fields[pointer]!);
  }
  return copy as T;
}

/** What a JSON merge patch (RFC 7386) makes of `target`. */
export function mergePatched(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatched(out[key], value);
  }
  return out;
}
