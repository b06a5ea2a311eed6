// The record of what a run changes, kept in the cluster it changes, written BEFORE each change:
// so that what a killed run (SIGKILL, a crash, a lost machine) left behind can be found and
// undone later (`chaoskit status`, `chaoskit revert`). One ConfigMap per run and cluster, in a
// namespace of the user's choice; each object the run touches is one key of it, holding the
// values its changed fields had before the run's first change. Touched objects carry the run's
// id in an annotation while the run's change is in place.

import { createHash } from 'node:crypto';
import type { Connection } from './connection.js';
import { ActivityFailed, isApiError } from './errors.js';
import { KubeClient } from './kube.js';
import { annotationPointer, type FieldValue, sameField, valueAt } from './pointers.js';
import { ConfigMaps, type ResourceType } from './resources.js';

export const RUN_ANNOTATION = 'chaoskit.io/run';
export const LEDGER_LABEL = 'chaoskit.io/ledger';
export const EXPIRES_ANNOTATION = 'chaoskit.io/expires';
export const TITLE_ANNOTATION = 'chaoskit.io/title';

export type { FieldValue } from './pointers.js';

/** Which object: enough to read it, restore it, or create it again. */
export interface ObjectRef {
  apiVersion: string;
  plural: string;
  namespaced: boolean;
  noun: string;
  namespace?: string;
  name: string;
}

/** One object the run changed. */
export interface TouchedObject {
  ref: ObjectRef;
  activities: string[];
  /** What the changed fields held before the run first changed them, by JSON pointer. */
  original: Record<string, FieldValue>;
  /** What the run last wrote there. */
  written: Record<string, FieldValue>;
  /** The run created it: reverting deletes it. */
  created?: boolean;
  /** The run deleted it: reverting creates it again from this copy. */
  deleted?: Record<string, unknown>;
}

/** Pods the run deleted or evicted: recorded, but not revertable (their controllers replace them). */
export interface RemovedPods {
  namespace: string;
  names: string[];
  activity: string;
  how: 'deleted' | 'evicted';
}

export interface RunInfo {
  runId: string;
  /** Where the run's record is kept. */
  namespace: string;
  /** After how long the run's changes count as expired (`chaoskit revert --expired`). */
  ttlSeconds: number;
  title?: string;
  started: string;
}

export const recordName = (runId: string) => `chaoskit-run-${runId}`;

export function refOf(type: ResourceType, name: string, namespace?: string | null): ObjectRef {
  return {
    apiVersion: type.apiVersion,
    plural: type.plural,
    namespaced: type.namespaced,
    noun: type.noun,
    ...(type.namespaced && namespace ? { namespace } : {}),
    name,
  };
}

export const typeOf = (ref: ObjectRef): ResourceType => ({
  apiVersion: ref.apiVersion,
  plural: ref.plural,
  namespaced: ref.namespaced,
  noun: ref.noun,
  kind: '',
});

const keyOf = (ref: ObjectRef) =>
  `o-${createHash('sha256')
    .update(`${ref.apiVersion}|${ref.plural}|${ref.namespace ?? ''}|${ref.name}`)
    .digest('hex')
    .slice(0, 20)}`;

/** The record of one run on one cluster. */
export class ClusterLedger {
  readonly #kube: KubeClient;
  readonly #objects = new Map<string, TouchedObject>();
  #pods = 0;
  #exists = false;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    connection: Connection,
    readonly run: RunInfo,
  ) {
    // The record is written with the activity's own identity, whatever the run's plan mode.
    this.#kube = new KubeClient(connection);
  }

  get runId(): string {
    return this.run.runId;
  }

  /** A client of the same cluster that records nothing (to read back what the run touched). */
  get client(): KubeClient {
    return this.#kube;
  }

  /**
   * Records, before a write to `pointers` of an object, what those fields hold now (the first
   * time the run touches each), and what the write will put there. Returns whether the write
   * puts every field the run changed back as it was: the run's mark then leaves the object.
   */
  async beforeWrite(
    ref: ObjectRef,
    current: unknown,
    pointers: readonly string[],
    after: (pointer: string) => FieldValue,
    activity: string,
  ): Promise<{ restores: boolean }> {
    const key = keyOf(ref);
    const entry = this.#objects.get(key) ?? { ref, activities: [], original: {}, written: {} };
    let changed = !this.#objects.has(key);
    for (const pointer of pointers) {
      if (pointer === annotationPointer(RUN_ANNOTATION)) continue;
      if (!(pointer in entry.original)) {
        entry.original[pointer] = valueAt(current, pointer);
        changed = true;
      }
      entry.written[pointer] = after(pointer);
    }
    if (!entry.activities.includes(activity)) {
      entry.activities.push(activity);
      changed = true;
    }
    this.#objects.set(key, entry);
    if (changed) await this.#persist({ [key]: entry });
    const restores = Object.keys(entry.original).every((p) =>
      sameField(entry.original[p]!, entry.written[p]!),
    );
    return { restores: restores && !entry.created };
  }

  /** Records, before a create, that the run creates this object. */
  async beforeCreate(ref: ObjectRef, activity: string): Promise<void> {
    const key = keyOf(ref);
    const entry: TouchedObject = { ref, activities: [activity], original: {}, written: {}, created: true };
    this.#objects.set(key, entry);
    await this.#persist({ [key]: entry });
  }

  /** Records, before deletes, the objects the run deletes (to create them again on revert). */
  async beforeDelete(entries: Array<{ ref: ObjectRef; object: Record<string, unknown> }>, activity: string) {
    const data: Record<string, TouchedObject> = {};
    for (const { ref, object } of entries) {
      const key = keyOf(ref);
      const entry = this.#objects.get(key) ?? { ref, activities: [], original: {}, written: {} };
      // An object the run itself created needs no copy: reverting means it is gone.
      if (!entry.created) entry.deleted = object;
      if (!entry.activities.includes(activity)) entry.activities.push(activity);
      this.#objects.set(key, entry);
      data[key] = entry;
    }
    if (entries.length) await this.#persist(data);
  }

  /** Records pods the run deletes or evicts (one key for the batch). */
  async beforePodRemoval(removed: RemovedPods): Promise<void> {
    if (removed.names.length === 0) return;
    await this.#persist({ [`p-${String(++this.#pods).padStart(4, '0')}`]: removed });
  }

  /** The objects the run touched so far (this process's view). */
  touched(): TouchedObject[] {
    return [...this.#objects.values()];
  }

  /** Forgets the record: the run ended with nothing of its own left in place. */
  async discard(): Promise<void> {
    await this.#queue.catch(() => undefined);
    if (!this.#exists) return;
    await this.#kube
      .delete(ConfigMaps, recordName(this.runId), { namespace: this.run.namespace })
      .catch((err) => {
        if (!isApiError(err, 'NotFound')) throw err;
      });
    this.#exists = false;
  }

  // Writes are queued: the first creates the ConfigMap, the later ones add their keys to it.
  #persist(data: Record<string, unknown>): Promise<void> {
    const write = async () => {
      const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, JSON.stringify(v)]));
      try {
        if (this.#exists) {
          await this.#kube.patch(ConfigMaps, recordName(this.runId), { data: encoded }, 'merge', {
            namespace: this.run.namespace,
          });
          return;
        }
        await this.#kube.create(ConfigMaps, this.#body(encoded), { namespace: this.run.namespace });
        this.#exists = true;
      } catch (err) {
        throw new ActivityFailed(
          `could not record the change in the run's record (ConfigMap ${recordName(this.runId)} in namespace '${this.run.namespace}'), so nothing was changed: ${(err as Error).message}. Give the identity get, create and patch on configmaps there, choose another namespace (--ledger-namespace), or run without a record (--no-ledger)`,
          { cause: err },
        );
      }
    };
    const next = this.#queue.then(write, write);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #body(data: Record<string, string>) {
    const expires = new Date(Date.parse(this.run.started) + this.run.ttlSeconds * 1000).toISOString();
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: recordName(this.runId),
        namespace: this.run.namespace,
        labels: { [LEDGER_LABEL]: 'true', [RUN_ANNOTATION]: this.runId },
        annotations: {
          [EXPIRES_ANNOTATION]: expires,
          'chaoskit.io/started': this.run.started,
          ...(this.run.title ? { [TITLE_ANNOTATION]: this.run.title.slice(0, 200) } : {}),
        },
      },
      data,
    };
  }
}

/** A run's record, across the clusters its activities reach: one ClusterLedger per connection. */
export class RunLedger {
  readonly #byConnection = new Map<Connection, ClusterLedger>();

  constructor(readonly run: RunInfo) {}

  get runId(): string {
    return this.run.runId;
  }

  for(connection: Connection): ClusterLedger {
    let ledger = this.#byConnection.get(connection);
    if (!ledger) {
      ledger = new ClusterLedger(connection, this.run);
      this.#byConnection.set(connection, ledger);
    }
    return ledger;
  }

  ledgers(): ClusterLedger[] {
    return [...this.#byConnection.values()];
  }
}

/** A run id: sortable by time, unique enough, a valid Kubernetes name part. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(16).slice(2, 8)}`.toLowerCase();
}
