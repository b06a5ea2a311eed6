// What a run leaves on each object it changes, besides the change: its id (`chaoskit.io/run`)
// and, sealed with its writer's key, what undoes the change (`chaoskit.io/undo`, naming the
// writer and the key). The record in the ledger namespace is where `status` looks first; the
// object's own annotations are what is left when that record is gone (deleted, or never written
// in full) — D86, D158.

import { RUN_ANNOTATION } from '../transport/ops.js';
import { type ObjectRef, parseJson, problemOf, type Undo, undo as undoSchema } from './entries.js';
import { annotationPointer } from './pointers.js';
import type { LedgerKey, LedgerKeys } from './seal.js';

export const UNDO_ANNOTATION = 'chaoskit.io/undo';
export const UNDO_MAC_ANNOTATION = 'chaoskit.io/undo-mac';

/** chaoskit's own annotations: never recorded as a change, never restored as one. */
export const MARK_ANNOTATIONS = [RUN_ANNOTATION, UNDO_ANNOTATION, UNDO_MAC_ANNOTATION] as const;

const MARK_POINTERS = new Set(MARK_ANNOTATIONS.map(annotationPointer));
export const isMarkPointer = (pointer: string) => MARK_POINTERS.has(pointer);

/** The annotations a write sets (a string) or takes off (null). */
export type MarkChange = Partial<Record<(typeof MARK_ANNOTATIONS)[number], string | null>>;

/** Taking every mark off. */
export const UNMARKED: MarkChange = Object.fromEntries(MARK_ANNOTATIONS.map((a) => [a, null]));

type Obj = { metadata?: { annotations?: Record<string, string>; uid?: string } };

export function annotationsOf(object: unknown): Record<string, string> {
  return ((object as Obj | undefined)?.metadata?.annotations ?? {}) as Record<string, string>;
}

/** The run whose change is on top of an object (its mark), if any. */
export const markOf = (object: unknown): string | undefined => annotationsOf(object)[RUN_ANNOTATION];

// Bound to the object by group, kind, namespace and name — not the API version it was read at.
const binding = (ref: ObjectRef) => [
  'undo',
  ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0]! : '',
  ref.plural,
  ref.namespace ?? '',
  ref.name,
];

/** The marks that say `undo` is on this object: the run's id, the undo and its seal. */
export function sealUndo(key: LedgerKey, ref: ObjectRef, value: Undo): MarkChange {
  const text = JSON.stringify(value);
  return {
    [RUN_ANNOTATION]: value.run,
    [UNDO_ANNOTATION]: text,
    [UNDO_MAC_ANNOTATION]: key.seal(binding(ref), text),
  };
}

/**
 * The undo an object carries, when its seal verifies with the key that vouches for its writer
 * and it belongs to this very object (its uid, when it names one); otherwise why not.
 */
export async function readUndo(
  keys: LedgerKeys,
  ref: ObjectRef,
  object: unknown,
): Promise<{ undo: Undo } | { problem: string }> {
  const annotations = annotationsOf(object);
  const text = annotations[UNDO_ANNOTATION];
  if (text === undefined) return { problem: 'it carries no undo annotation' };
  const parsed = parseJson(text);
  if ('problem' in parsed) return { problem: `its undo annotation is ${parsed.problem}` };
  const problem = problemOf(undoSchema, parsed.value);
  if (problem)
    return {
      problem: `its undo annotation is malformed or written by an older chaoskit (${problem})`,
    };
  const value = parsed.value as Undo;
  const vouched = await keys.vouching(value.ledger, value.key, value.writer);
  if ('problem' in vouched) return { problem: `its undo annotation cannot be verified: ${vouched.problem}` };
  if (!vouched.key.verifies(binding(ref), text, annotations[UNDO_MAC_ANNOTATION]))
    return {
      problem: `its undo annotation is not sealed with the key of ${value.writer.username} (forged, or copied from another object)`,
    };
  const uid = (object as Obj).metadata?.uid;
  if (value.uid && uid && value.uid !== uid)
    return { problem: 'its undo annotation was written for another object of that name' };
  return { undo: value };
}

/**
 * The undo an object carries as it says, unverified: what the run under a new one says the
 * fields held before it, when that run seals with a key the new one may not read (a runner's,
 * another ledger namespace's). Only ever a run's `base` — the values before both runs — never
 * what a revert acts on alone: whoever could write the annotation could write the fields too.
 */
export function claimedUndo(object: unknown): Undo | undefined {
  const text = annotationsOf(object)[UNDO_ANNOTATION];
  const parsed = text === undefined ? undefined : parseJson(text);
  if (!parsed || 'problem' in parsed || problemOf(undoSchema, parsed.value)) return undefined;
  const value = parsed.value as Undo;
  const uid = (object as Obj).metadata?.uid;
  return value.uid && uid && value.uid !== uid ? undefined : value;
}

/** The prior marks as a change that puts them back (those absent taken off). */
export function restoring(prior: { run?: string; undo?: string; mac?: string } | undefined): MarkChange {
  if (!prior?.run) return UNMARKED;
  return {
    [RUN_ANNOTATION]: prior.run,
    [UNDO_ANNOTATION]: prior.undo ?? null,
    [UNDO_MAC_ANNOTATION]: prior.mac ?? null,
  };
}
