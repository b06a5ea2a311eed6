// The record step of the write chain (after the rails, before the send): what the run's ledger
// keeps before each change (the before-image), and the marks the write carries.

import { isApiError } from '../errors/errors.js';
import type { ClusterNotes } from '../events/notes.js';
import type { Railed } from '../rails/railed.js';
import type { After, ClusterLedger } from '../record/ledger.js';
import { refOf } from '../record/names.js';
import { diffPointers, patchPointers } from '../record/pointers.js';
import { reservedByOthers, withShareLock } from '../record/reservations.js';
import { isMarkPointer, type MarkChange } from '../record/run-marks.js';
import {
  changed,
  type DeleteOp,
  nameOf,
  type PatchOp,
  type ReplaceOp,
  type WriteOp,
} from '../transport/ops.js';
import { Pods } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';

/** What the chain's steps need of the client that writes (a KubeClient). */
export interface Writer extends Railed {
  /** The road below the chain: its reads, and the send at its end. */
  readonly transport: Transport;
  /** The run's record of the changes; none in plan mode or outside a run. */
  readonly ledger: ClusterLedger | undefined;
  /** The Events of the run's changes on this cluster; none in plan mode or outside a run. */
  readonly notes: ClusterNotes | undefined;
}

/** The chain's step after a write was sent: its trace event and meters, and its object's Event. */
export function afterWrite(writer: Writer, op: WriteOp, sent: unknown): void {
  changed(op, writer.dryRun);
  writer.notes?.changed(op, sent, writer.activity);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `body` with chaoskit's marks changed: set, or taken off (null in a merge patch, left out of a whole object). */
function marked(body: unknown, change: MarkChange, style: 'merge' | 'whole'): unknown {
  if (!isObj(body) || Object.keys(change).length === 0) return body;
  const metadata = isObj(body.metadata) ? body.metadata : {};
  const annotations = isObj(metadata.annotations) ? { ...metadata.annotations } : {};
  for (const [key, value] of Object.entries(change)) {
    if (value !== null) annotations[key] = value;
    else if (style === 'merge') annotations[key] = null;
    else delete annotations[key];
  }
  return { ...body, metadata: { ...metadata, annotations } };
}

// Of a server-side apply body, what it sets (its identity is not a change).
const applied = (pointer: string) =>
  isMarkPointer(pointer) ||
  ['/apiVersion', '/kind', '/metadata/name', '/metadata/namespace'].includes(pointer);

/** The object now, as the caller gave it or read from the cluster; undefined when it is gone. */
async function current(transport: Transport, op: ReplaceOp | PatchOp | DeleteOp) {
  if (op.before !== undefined) return op.before;
  try {
    return await transport.get(op.type, op.name, op.namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/**
 * Records a write of `pointers` to the object, then gives the body with the run's marks: set
 * while the run's change is in place, taken off (or given back to the run under it) by a write
 * that undoes it. A missing object: the write fails as it would have, with nothing to record.
 */
async function recordFields(
  writer: Writer,
  ledger: ClusterLedger,
  op: ReplaceOp | PatchOp,
  body: unknown,
  pointers: (current: unknown) => string[],
  after: After,
  style: 'merge' | 'whole',
): Promise<unknown> {
  const now = await current(writer.transport, op);
  if (now === undefined) return body;
  const ref = refOf(op.type, op.name, op.namespace);
  const marks = await ledger.beforeWrite(ref, now, after, pointers(now), writer.activity);
  return marked(body, marks, style);
}

/**
 * Records the pods about to be removed in the run's record. For a selection, first checks the
 * share again with the pods other runs removed and still hold (D88) — the check and the record
 * made under the namespace's share lock, so that runs check one after the other: too many, and
 * the removal is refused before any pod goes or is recorded.
 */
export async function recordPodRemoval(
  writer: Writer,
  ledger: ClusterLedger,
  namespace: string,
  names: readonly string[],
  how: 'deleted' | 'evicted',
  named = false,
): Promise<void> {
  const record = () =>
    ledger.beforePodRemoval({ namespace, names: [...names], activity: writer.activity, how });
  const safety = writer.safety;
  if (!safety || named || how === 'evicted' || names.length <= 1) {
    await record();
    return;
  }
  await withShareLock(
    ledger.transport,
    ledger.run.namespace,
    namespace,
    ledger.runId,
    async () => {
      const others = await reservedByOthers(ledger.transport, ledger.run.namespace, ledger.runId, namespace);
      const extra = [...others.names].filter((name) => !names.includes(name)).length;
      if (extra > 0) {
        const total = await writer.transport.count(Pods, { namespace });
        safety.checkPodShare(writer.activity, namespace, names.length + extra, total, {
          pods: extra,
          runs: others.runs,
        });
        writer.note(
          `pod share rail: with the ${extra} pod(s) run(s) ${others.runs.join(', ')} removed, still within the share`,
        );
      }
      await record();
    },
    writer.transport.signal,
  );
}

/**
 * The record step of one write: what the run's record keeps before it, and the body to send
 * (the run's marks set), or undefined to send the op's own. A JSON Patch (a list of operations)
 * is not recorded field by field: chaoskit's activities write merge patches, server-side
 * applies and whole objects.
 */
export async function recordWrite(writer: Writer, op: WriteOp): Promise<unknown> {
  const ledger = writer.ledger;
  if (!ledger) return undefined;
  switch (op.verb) {
    case 'create': {
      const name = nameOf(op);
      if (!name) return undefined;
      const marks = await ledger.beforeCreate(refOf(op.type, name, op.namespace), writer.activity);
      return marked(op.body, marks, 'whole');
    }
    case 'replace':
      return recordFields(
        writer,
        ledger,
        op,
        op.body,
        (now) => diffPointers(now, op.body, isMarkPointer),
        { whole: op.body },
        'whole',
      );
    case 'patch':
      if (op.patchType === 'json') return undefined;
      return recordFields(
        writer,
        ledger,
        op,
        op.patch,
        () => patchPointers(op.patch, op.patchType === 'apply' ? applied : isMarkPointer),
        // A server-side apply is read as a merge of the fields it sets: what chaoskit's
        // applies send (custom objects' fields) merge that way.
        { merge: op.patch },
        op.patchType === 'apply' ? 'whole' : 'merge',
      );
    case 'delete':
      if (op.type === Pods) {
        await recordPodRemoval(writer, ledger, op.namespace ?? '', [op.name], 'deleted');
        return undefined;
      }
      await recordDeletes(writer, ledger, [op]);
      return undefined;
    case 'evict':
      await recordPodRemoval(writer, ledger, op.namespace ?? '', [op.name], 'evicted');
      return undefined;
    case 'subresource':
      return undefined;
  }
}

/** Records objects about to be deleted (one write), to create them again on a revert. */
export async function recordDeletes(
  writer: Writer,
  ledger: ClusterLedger,
  ops: readonly DeleteOp[],
): Promise<void> {
  const entries: Array<{ ref: ReturnType<typeof refOf>; object: Obj }> = [];
  for (const op of ops) {
    const object = await current(writer.transport, op);
    if (isObj(object)) entries.push({ ref: refOf(op.type, op.name, op.namespace), object });
  }
  await ledger.beforeDelete(entries, writer.activity);
}
