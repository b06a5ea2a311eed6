// Whether a run's change to one object is still in place, and what undoes it: shared by the run's
// own end (what it left), `status` and `revert`. A change is found by what it is (identity
// pointers), checked against what the run wrote (its after-image), and, when runs changed the
// same object one over the other, undone as a chain: reverting both ends at the state before
// both, in either order (D87).

import { isApiError } from '../errors/errors.js';
import type { Transport } from '../transport/transport.js';
import type { ObjectRef, TouchedObject } from './entries.js';
import { parentsFirst, pointerOf, resolve, tokens } from './locate.js';
import { typeOf } from './names.js';
import { annotationPointer, type FieldValue, sameField, valueAt } from './pointers.js';
import { type MarkChange, markOf, readUndo, restoring, UNMARKED } from './run-marks.js';
import type { LedgerKeys } from './seal.js';

export type ObjectState =
  /** The run's change is in place: revert undoes it. */
  | 'in place'
  /** Undone already (a rollback, a revert, or by hand: the fields are as they were). */
  | 'undone'
  /** Someone changed the fields since (or they cannot be found): revert refuses unless forced. */
  | 'changed since'
  /** Another run changed it after this one and undoes both: nothing for this run to do. */
  | 'handed over'
  /** The object is gone (and the run did not delete it): nothing to undo. */
  | 'gone'
  /** The record says the run changed it, but its writer may not: no change of the run, never acted on. */
  | 'beyond its writer';

export interface ObjectStatus {
  ref: ObjectRef;
  state: ObjectState;
  /** What the run did to it, in words ("changed /spec/unschedulable", "created", "deleted"). */
  what: string;
  activities: string[];
  /** Why, when the state needs explaining (which field changed since, which run took over). */
  detail?: string;
}

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown> & { uid?: string } };
export type JsonPatchOp = { op: 'test' | 'add' | 'replace' | 'remove'; path: string; value?: unknown };

/** What undoes the change. */
export type Undoing =
  | { patch: JsonPatchOp[]; to: 'before this run' | 'before the runs under it' }
  | { delete: { uid?: string } }
  | { create: Obj };

export interface Assessment {
  status: ObjectStatus;
  /** Set when the change is in place (or changed since, for `force`). */
  undo?: Undoing;
}

/** What other runs' records say: the chain of runs on one object. */
export interface OtherRuns {
  /** Whether run `runId` still has a change to `ref` of its own to undo. */
  holds(runId: string, ref: ObjectRef): Promise<boolean>;
}

const describeFields = (o: TouchedObject) => Object.keys(o.original).join(', ');

export function whatOf(o: TouchedObject): string {
  if (o.created) return 'created';
  if (o.deleted) return 'deleted';
  return `changed ${describeFields(o)}`;
}

export async function readObject(kube: Transport, ref: ObjectRef): Promise<Obj | undefined> {
  try {
    return await kube.get<Obj>(typeOf(ref), ref.name, ref.namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
}

const strip = (object: Obj): Obj => {
  const { metadata = {}, status: _status, ...rest } = object;
  const {
    uid: _u,
    resourceVersion: _r,
    creationTimestamp: _c,
    managedFields: _m,
    generation: _g,
    selfLink: _s,
    deletionTimestamp: _d,
    deletionGracePeriodSeconds: _dg,
    ...meta
  } = metadata as Record<string, unknown>;
  return { ...rest, metadata: meta };
};

/** The JSON Patch operations that take the marks to `change`. */
function markOps(current: Obj, change: MarkChange): JsonPatchOp[] {
  const annotations = (current.metadata?.annotations ?? {}) as Record<string, string>;
  const ops: JsonPatchOp[] = [];
  const wanted = Object.entries(change).filter(([k, v]) =>
    v === null ? k in annotations : annotations[k] !== v,
  );
  if (wanted.length === 0) return ops;
  if (!current.metadata?.annotations) ops.push({ op: 'add', path: '/metadata/annotations', value: {} });
  for (const [k, v] of wanted) {
    const path = annotationPointer(k);
    if (v === null) ops.push({ op: 'remove', path });
    else ops.push({ op: k in annotations ? 'replace' : 'add', path, value: v });
  }
  return ops;
}

/** Operations that put `fields` (concrete pointers → values) into `current`, parents first. */
function fieldOps(current: Obj, fields: Array<[string, FieldValue]>): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  const created = new Set<string>();
  const byPointer = new Map(fields);
  for (const pointer of parentsFirst([...byPointer.keys()])) {
    const want = byPointer.get(pointer)!;
    const now = valueAt(current, pointer);
    if (sameField(now, want) && now.present === want.present) continue;
    if (!want.present) {
      if (now.present) ops.push({ op: 'remove', path: pointer });
      continue;
    }
    // A parent someone removed since (or never there): made first, as an empty object.
    const parts = tokens(pointer);
    for (let i = 1; i < parts.length; i++) {
      const parent = pointerOf(parts.slice(0, i));
      if (!valueAt(current, parent).present && !created.has(parent)) {
        ops.push({ op: 'add', path: parent, value: {} });
        created.add(parent);
      }
    }
    ops.push({ op: now.present ? 'replace' : 'add', path: pointer, value: want.value });
  }
  return ops;
}

/**
 * Whether a run's change to one object is in place, and what undoes it. `keys` verify the undo
 * annotation of a run on top (hand-over); `others` says which runs still hold changes.
 */
export async function assess(
  kube: Transport,
  runId: string,
  entry: TouchedObject,
  others: OtherRuns,
  keys?: LedgerKeys,
): Promise<Assessment> {
  const current = await readObject(kube, entry.ref);
  const base = { ref: entry.ref, what: whatOf(entry), activities: entry.activities };
  const mark = current ? markOf(current) : undefined;
  if (entry.created) {
    if (!current) return { status: { ...base, state: 'undone' } };
    if (mark !== runId)
      return {
        status: {
          ...base,
          state: 'changed since',
          detail: "it no longer carries this run's mark (created again by someone else?)",
        },
        undo: { delete: { uid: current.metadata?.uid as string } },
      };
    return {
      status: { ...base, state: 'in place' },
      undo: { delete: { uid: current.metadata?.uid as string } },
    };
  }
  if (entry.deleted) {
    if (current) return { status: { ...base, state: 'undone' } };
    return { status: { ...base, state: 'in place' }, undo: { create: strip(entry.deleted as Obj) } };
  }
  if (!current) return { status: { ...base, state: 'gone' } };
  if (entry.ref.uid && current.metadata?.uid && entry.ref.uid !== current.metadata.uid)
    return {
      status: {
        ...base,
        state: 'gone',
        detail: 'an object of that name exists, but not the one the run changed',
      },
    };

  // Another run wrote over this one and chained to it: that run undoes both.
  if (mark && mark !== runId && keys) {
    const theirs = await readUndo(keys, entry.ref, current);
    if (
      'undo' in theirs &&
      theirs.undo.run === mark &&
      theirs.undo.after === runId &&
      (await others.holds(mark, entry.ref))
    )
      return {
        status: {
          ...base,
          state: 'handed over',
          detail: `run ${mark} changed it after this run; reverting run ${mark} undoes both`,
        },
      };
  }

  const located: Array<[string, string]> = [];
  const lost: string[] = [];
  for (const q of Object.keys(entry.original)) {
    const at = resolve(current, q);
    if ('pointer' in at) located.push([q, at.pointer]);
    else lost.push(`${q} (${at.problem})`);
  }
  const now = (concrete: string) => valueAt(current, concrete);
  const isUndone = (q: string, concrete: string) =>
    sameField(now(concrete), entry.original[q]!) ||
    (entry.base?.[q] !== undefined && sameField(now(concrete), entry.base[q]!));
  const inPlace = (q: string, concrete: string) =>
    entry.written[q] !== undefined && sameField(now(concrete), entry.written[q]!);
  const other = located.filter(([q, c]) => !isUndone(q, c) && !inPlace(q, c)).map(([q]) => q);
  if (lost.length === 0 && other.length === 0 && located.every(([q, c]) => isUndone(q, c)))
    return { status: { ...base, state: 'undone' } };

  // Back to before this run while the run under it still holds its change; else before both.
  const under = entry.after && (await others.holds(entry.after, entry.ref));
  const target = (q: string): FieldValue =>
    under || !entry.base ? entry.original[q]! : (entry.base[q] ?? entry.original[q]!);
  const restore: Array<[string, FieldValue]> = located.map(([q, c]) => [c, target(q)]);
  // Fields the run under this one changed alone are this run's to restore once it is gone.
  if (!under && entry.base) {
    for (const q of Object.keys(entry.base)) {
      if (q in entry.original) continue;
      const at = resolve(current, q);
      if ('pointer' in at) restore.push([at.pointer, entry.base[q]!]);
    }
  }
  const marks = mark === runId ? (under ? restoring(entry.prior) : UNMARKED) : {};
  const undo: Undoing = {
    patch: [
      { op: 'test', path: '/metadata/resourceVersion', value: current.metadata?.resourceVersion },
      ...fieldOps(current, restore),
      ...markOps(current, marks),
    ],
    to: under || !entry.base ? 'before this run' : 'before the runs under it',
  };
  // The fields hold what the run wrote, but its mark is gone: the change was undone (a revert
  // takes the mark off) and made again by someone else — theirs now, not the run's (D158).
  if (!mark && lost.length === 0 && other.length === 0)
    return {
      status: {
        ...base,
        state: 'changed since',
        detail:
          "it no longer carries this run's mark: undone since and changed again by someone else, whose change it now is",
      },
      undo,
    };
  if (lost.length || other.length)
    return {
      status: {
        ...base,
        state: 'changed since',
        detail: [
          other.length ? `changed by someone else since: ${other.join(', ')}` : '',
          lost.length ? `cannot be found any more: ${lost.join('; ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      },
      undo,
    };
  return { status: { ...base, state: 'in place' }, undo };
}
