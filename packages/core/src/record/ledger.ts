// The record of what a run changes, kept in the cluster it changes and written BEFORE each
// change, so that what a killed run (SIGKILL, a crash, a lost machine) left behind can be found
// and undone later (`chaoskit status`, `chaoskit revert`). One ConfigMap per run and cluster, in
// the ledger namespace: a sealed header naming the run's identity (its writer, what the record is
// undone as), then one sealed key per object the run touches, holding what its changed fields
// held before (by identity, record/locate.ts) and what the run wrote. Each touched object also
// carries the run's mark and its sealed undo (record/run-marks.ts).

import { ActivityFailed, isApiError } from '../errors/errors.js';
import { identityOf } from '../transport/access.js';
import { sendWrite } from '../transport/ops.js';
import { ConfigMaps } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import { assess, type ObjectStatus, type OtherRuns } from './assess.js';
import {
  HEADER_KEY,
  MAC_SUFFIX,
  type ObjectRef,
  objectKey,
  podsKey,
  type RemovedPods,
  type TouchedObject,
  type Undo,
} from './entries.js';
import { mergePatched, withFields } from './images.js';
import { covers, identify, resolve } from './locate.js';
import { entryId, recordBinding } from './names.js';
import { otherRunsOf } from './other-runs.js';
import { type FieldValue, sameField, valueAt } from './pointers.js';
import { readRecords } from './read.js';
import { deleteRecord } from './revert.js';
import {
  annotationsOf,
  claimedUndo,
  isMarkPointer,
  type MarkChange,
  markOf,
  readUndo,
  restoring,
  sealUndo,
  UNDO_ANNOTATION,
  UNDO_MAC_ANNOTATION,
  UNMARKED,
} from './run-marks.js';
import { createRecord, type RunInfo, recordHeader, recordNameOf } from './run-record.js';
import { keyForRun, type LedgerKey, LedgerKeys } from './seal.js';
import type { Writer } from './writer.js';

/** What a write will leave: the whole body (replace, apply), or the object merged with a patch. */
export type After = { whole: unknown } | { merge: unknown };

const uidOf = (object: unknown) => (object as { metadata?: { uid?: string } }).metadata?.uid;

/** The record of one run on one cluster. */
export class ClusterLedger {
  readonly #objects = new Map<string, TouchedObject>();
  #pods = 0;
  /** The record's ConfigMap, once created: its uid binds every seal to it. */
  #uid: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #writer: Promise<Writer> | undefined;
  #key: Promise<LedgerKey> | undefined;
  #keys: LedgerKeys | undefined;

  constructor(
    /** The cluster's transport: the record is read and written with it (no rails, no record). */
    readonly transport: Transport,
    readonly run: RunInfo,
  ) {}

  get runId(): string {
    return this.run.runId;
  }

  /** The record's ConfigMap. */
  get name(): string {
    return recordNameOf(this.run);
  }

  /** The run's identity, as the cluster knows it: the record's writer. */
  writer(): Promise<Writer> {
    this.#writer ??= identityOf(this.transport).then(
      (identity) => {
        if (!identity)
          throw new Error(
            'the cluster does not say who the run is (a SelfSubjectReview, Kubernetes 1.28 and later), which its record must name',
          );
        return identity;
      },
      (err: unknown) => {
        this.#writer = undefined;
        throw err;
      },
    );
    return this.#writer;
  }

  /** The key the run seals its record with: its runner's own, or the operators' (D158). */
  key(): Promise<LedgerKey> {
    this.#key ??= this.writer()
      // A deployment's run is its runner's, sealed with the runner's own key (D158).
      .then((writer) =>
        keyForRun(this.transport, this.run.namespace, writer, this.run.deployment !== undefined),
      )
      .catch((err: unknown) => {
        this.#key = undefined;
        throw this.#failure('read the key that seals the record', err);
      });
    return this.#key;
  }

  /** The keys of other runs' records (and undo marks) this run's identity may read. */
  #others(): LedgerKeys {
    this.#keys ??= new LedgerKeys(this.transport, this.writer());
    return this.#keys;
  }

  /**
   * Records, before a write of `pointers` (concrete JSON pointers) of an object, what those
   * fields hold now (the first time the run touches each) and what the write leaves there.
   * Returns the marks the write must carry: the run's, or — when the write puts everything the
   * run changed back — those the object had before the run (or none).
   */
  async beforeWrite(
    ref: ObjectRef,
    current: unknown,
    after: After,
    pointers: readonly string[],
    activity: string,
  ): Promise<MarkChange> {
    const key = await this.key();
    const id = entryId(ref);
    const known = this.#objects.get(id);
    const entry: TouchedObject = known ?? (await this.#startEntry(ref, current));
    let changed = !known;
    // The object before this run (its own changes put back), and before the run under it.
    const before = withFields(current, entry.original);
    const beforeChain = entry.base ? withFields(before, entry.base) : undefined;
    for (const concrete of pointers) {
      if (isMarkPointer(concrete)) continue;
      const at = identify(current, concrete);
      if (Object.keys(entry.original).some((q) => covers(q, at))) continue;
      // A parent of fields recorded before now holds them all: one field, its value as it was.
      for (const inner of Object.keys(entry.original).filter((q) => covers(at, q))) {
        delete entry.original[inner];
        delete entry.written[inner];
        if (entry.base) delete entry.base[inner];
      }
      entry.original[at] = valueAt(before, concrete);
      if (entry.base && beforeChain) entry.base[at] = valueAt(beforeChain, concrete);
      changed = true;
    }
    const image = 'whole' in after ? after.whole : mergePatched(current, after.merge);
    for (const q of Object.keys(entry.original)) {
      const at = resolve(current, q);
      const written: FieldValue = 'pointer' in at ? valueAt(image, at.pointer) : { present: false };
      if (!sameField(written, entry.written[q] ?? { present: false }) || !(q in entry.written))
        changed = true;
      entry.written[q] = written;
    }
    if (!entry.activities.includes(activity)) {
      entry.activities.push(activity);
      changed = true;
    }
    this.#objects.set(id, entry);
    if (changed) await this.#persist({ [objectKey(id)]: entry });
    return this.#marksAfter(key, await this.writer(), entry, current);
  }

  /** A new entry; when another run's change is on the object, the chain to it (D87). */
  async #startEntry(ref: ObjectRef, current: unknown): Promise<TouchedObject> {
    const uid = uidOf(current);
    const entry: TouchedObject = {
      ref: { ...ref, ...(uid ? { uid } : {}) },
      activities: [],
      original: {},
      written: {},
    };
    const mark = markOf(current);
    if (!mark || mark === this.runId) return entry;
    const annotations = annotationsOf(current);
    entry.after = mark;
    entry.prior = {
      run: mark,
      ...(annotations[UNDO_ANNOTATION] ? { undo: annotations[UNDO_ANNOTATION] } : {}),
      ...(annotations[UNDO_MAC_ANNOTATION] ? { mac: annotations[UNDO_MAC_ANNOTATION] } : {}),
    };
    // What the fields held before that run: from its sealed undo, verified when this run may
    // (the same writer, or the operators' key both read), else as it says — a run recording in
    // another ledger namespace, a runner's — so that this run never takes that run's value for
    // the object's own: its revert goes back before both once that run is gone (D87).
    const theirs = await readUndo(this.#others(), ref, current);
    const under = 'undo' in theirs ? theirs.undo : claimedUndo(current);
    if (under?.run === mark) entry.base = { ...(under.base ?? under.original ?? {}) };
    return entry;
  }

  #marksAfter(key: LedgerKey, writer: Writer, entry: TouchedObject, current: unknown): MarkChange {
    const fields = Object.keys(entry.original);
    const mark = markOf(current);
    // Someone else's change is on top now: their marks stay.
    const ours = mark === undefined || mark === this.runId || mark === entry.after;
    if (fields.every((q) => sameField(entry.original[q]!, entry.written[q]!)))
      return ours && mark !== entry.after ? restoring(entry.prior) : {};
    if (entry.base && fields.every((q) => sameField(entry.base![q] ?? entry.original[q]!, entry.written[q]!)))
      return ours ? UNMARKED : {};
    const value: Undo = {
      v: 3,
      run: this.runId,
      ledger: this.run.namespace,
      writer,
      key: key.secret,
      activities: entry.activities,
      ...(entry.ref.uid ? { uid: entry.ref.uid } : {}),
      original: entry.original,
      written: entry.written,
      ...(entry.base ? { base: entry.base } : {}),
      ...(entry.after ? { after: entry.after } : {}),
    };
    return sealUndo(key, entry.ref, value);
  }

  /** Records, before a create, that the run creates this object; returns the marks it carries. */
  async beforeCreate(ref: ObjectRef, activity: string): Promise<MarkChange> {
    const key = await this.key();
    const id = entryId(ref);
    const entry: TouchedObject = { ref, activities: [activity], original: {}, written: {}, created: true };
    this.#objects.set(id, entry);
    await this.#persist({ [objectKey(id)]: entry });
    return sealUndo(key, ref, {
      v: 3,
      run: this.runId,
      ledger: this.run.namespace,
      writer: await this.writer(),
      key: key.secret,
      activities: [activity],
      created: true,
    });
  }

  /** Records, before deletes, the objects the run deletes (to create them again on revert). */
  async beforeDelete(entries: Array<{ ref: ObjectRef; object: Record<string, unknown> }>, activity: string) {
    const data: Record<string, TouchedObject> = {};
    for (const { ref, object } of entries) {
      const id = entryId(ref);
      const entry = this.#objects.get(id) ?? { ref, activities: [], original: {}, written: {} };
      // An object the run itself created needs no copy: reverting means it is gone.
      if (!entry.created) entry.deleted = object;
      if (!entry.activities.includes(activity)) entry.activities.push(activity);
      this.#objects.set(id, entry);
      data[objectKey(id)] = entry;
    }
    if (entries.length) await this.#persist(data);
  }

  /** Records pods the run deletes or evicts (one key for the batch); returns the key. */
  async beforePodRemoval(removed: RemovedPods): Promise<string | undefined> {
    if (removed.names.length === 0) return undefined;
    const key = podsKey(++this.#pods);
    await this.#persist({ [key]: removed });
    return key;
  }

  /** The objects the run touched so far (this process's view). */
  touched(): TouchedObject[] {
    return [...this.#objects.values()];
  }

  /**
   * What of the run's changes is still in place (or changed since) on this cluster; when
   * nothing is, the record is deleted: there is nothing to revert.
   */
  async settle(): Promise<ObjectStatus[]> {
    if (this.#objects.size === 0) {
      await this.discard();
      return [];
    }
    // Other runs' records are read only if a change sits in a chain with theirs.
    let others: Promise<OtherRuns> | undefined;
    const holds: OtherRuns = {
      holds: async (runId, ref) => {
        others ??= readRecords(this.transport, this.run.namespace, this.#others()).then(({ runs }) =>
          otherRunsOf(runs),
        );
        return (await others).holds(runId, ref);
      },
    };
    const statuses: ObjectStatus[] = [];
    for (const entry of this.#objects.values())
      statuses.push((await assess(this.transport, this.runId, entry, holds, this.#others())).status);
    const left = statuses.filter((s) => s.state === 'in place' || s.state === 'changed since');
    if (left.length === 0) await this.discard();
    return left;
  }

  /** Forgets the record: the run ended with nothing of its own left in place. */
  async discard(): Promise<void> {
    await this.#queue.catch(() => undefined);
    if (!this.#uid) return;
    await deleteRecord(this.transport, this.run.namespace, this.name, this.#uid).catch((err) => {
      if (!isApiError(err, 'NotFound')) throw err;
    });
    this.#uid = undefined;
  }

  #failure(what: string, err: unknown): ActivityFailed {
    return new ActivityFailed(
      `could not ${what} in namespace '${this.run.namespace}' for the run's record (ConfigMap ${this.name}), so nothing was changed: ${(err as Error).message}. Give the identity the rights chaoskit rbac lists for the record, choose another namespace (--ledger-namespace), or run without a record (--no-ledger)`,
      { cause: err },
    );
  }

  // Writes are queued: the first creates the ConfigMap (empty: its uid, which the seals bind,
  // is the server's to give) and writes the sealed header; the later ones add their keys to it.
  // Every value is sealed under its own key (`<key>.mac`).
  #persist(data: Record<string, unknown>): Promise<void> {
    const write = async () => {
      const key = await this.key();
      const first = !this.#uid;
      try {
        if (first) this.#uid = await createRecord(this.transport, this.run);
        const encoded: Record<string, string> = {};
        const seal = (name: string, value: unknown) => {
          const text = JSON.stringify(value);
          encoded[name] = text;
          encoded[`${name}${MAC_SUFFIX}`] = key.seal(
            recordBinding(this.run.namespace, this.name, this.#uid!, name),
            text,
          );
        };
        if (first) seal(HEADER_KEY, recordHeader(this.run, await this.writer(), key));
        for (const [name, value] of Object.entries(data)) seal(name, value);
        await sendWrite(this.transport, {
          verb: 'patch',
          type: ConfigMaps,
          name: this.name,
          // The uid is a precondition: a record deleted and made again under the run is not written.
          patch: { metadata: { uid: this.#uid }, data: encoded },
          patchType: 'merge',
          namespace: this.run.namespace,
        });
      } catch (err) {
        throw this.#failure('record the change', err);
      }
    };
    const next = this.#queue.then(write, write);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** A run's record, across the clusters its activities reach: one ClusterLedger per cluster. */
export class RunLedger {
  readonly #byConnection = new Map<unknown, ClusterLedger>();

  constructor(readonly run: RunInfo) {}

  get runId(): string {
    return this.run.runId;
  }

  /** The ConfigMap of the run's record, in each cluster. */
  get recordName(): string {
    return recordNameOf(this.run);
  }

  /** The record on the cluster `transport` reaches. */
  for(transport: Transport): ClusterLedger {
    let ledger = this.#byConnection.get(transport.connection);
    if (!ledger) {
      ledger = new ClusterLedger(transport, this.run);
      this.#byConnection.set(transport.connection, ledger);
    }
    return ledger;
  }

  ledgers(): ClusterLedger[] {
    return [...this.#byConnection.values()];
  }
}
