// What an activity asks of the cluster: objects by kind, name and namespace, as the JSON the
// API sends (no model conversion). One per activity call (ctx.kube), over the transport of its
// cluster. Every write goes through one chain, `write(op)`: the rails, the run's confirmation,
// the record in the run's ledger, then the send — a server-side dry run in plan mode, so that no
// activity can forget to. Many deletes or evictions go through `batch(ops)`, the same chain
// once for all of them.

import { createClusterClient } from '../auth/cluster-client.js';
import type { ApiRequestContext } from '../errors/errors.js';
import type { ClusterNotes } from '../events/notes.js';
import type { PodRemovalOptions } from '../rails/pod-share.js';
import type { Safety } from '../rails/safety.js';
import { railWrite } from '../rails/writes.js';
import type { ClusterLedger } from '../record/ledger.js';
import { type Connection, connectionFor } from '../transport/connection.js';
import type { CountOptions, ListOptions, Page } from '../transport/lists.js';
import { type PatchType, type RemovalOp, sendWrite, type WriteOp } from '../transport/ops.js';
import type { Query, RequestOptions } from '../transport/request.js';
import { Pods, type ResourceType } from '../transport/resources.js';
import { Transport, type TransportMiddleware } from '../transport/transport.js';
import type { WatchEvent, WatchOptions } from '../transport/watch.js';
import { type Batch, prepareBatch } from './batch.js';
import { afterWrite, recordWrite, type Writer } from './record-step.js';

export interface WriteOptions {
  namespace?: string | null;
  /** Extra query parameters (fieldManager, fieldValidation, gracePeriodSeconds…). */
  query?: Query;
  /**
   * The object as it is now, when the caller has just read it: the run's record then takes the
   * fields' old values from it instead of reading the object again.
   */
  before?: unknown;
}

export interface KubeClientOptions {
  signal?: AbortSignal;
  /** Plan mode: every mutation is a server-side dry run (`dryRun=All`). */
  dryRun?: boolean;
  /** The run's record on this cluster: every change is written to it first. */
  ledger?: ClusterLedger;
  /** Who makes the changes (`module.func`), for the record. */
  activity?: string;
  /** The run's Events on the objects it changes: one after each real write (D134). */
  notes?: ClusterNotes;
  /** The run's safety rails: no change in a protected namespace, the confirmation asked first. */
  safety?: Safety;
  /** Where the rails say what they considered (the activity's log: the journal, `plan`). */
  log?: (line: string) => void;
  /** Seen before and after every request (tracing, counting). */
  middleware?: readonly TransportMiddleware[];
}

const where = (options: WriteOptions) => ({
  ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  ...(options.query ? { query: options.query } : {}),
});

// How core's own modules reach a client's transport (set once, by the class below).
let reach: (kube: KubeClient) => Transport;

/**
 * The transport under a client, for core's own modules only: not exported from any entry point,
 * so that nothing outside core sends a request — a write least of all — past the write chain.
 */
export function transportOf(kube: KubeClient): Transport {
  return reach(kube);
}

export class KubeClient {
  // Private (not `readonly transport`): whoever holds a client — every activity — could
  // otherwise send a write with no rail, no record and no dry run in plan mode.
  readonly #transport: Transport;
  readonly #options: KubeClientOptions;
  /** What the write chain's steps are given: this client's transport, rails, record and Events. */
  readonly #writer: Writer;

  static {
    reach = (kube) => kube.#transport;
  }

  constructor(connection: Connection, options: KubeClientOptions = {}) {
    this.#options = options;
    const transport = new Transport(connection, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.middleware ? { middleware: options.middleware } : {}),
    });
    this.#transport = transport;
    const dryRun = options.dryRun === true;
    this.#writer = {
      transport,
      activity: options.activity ?? 'chaoskit',
      dryRun,
      safety: options.safety,
      // None kept, none posted in plan mode.
      ledger: dryRun ? undefined : options.ledger,
      notes: dryRun ? undefined : options.notes,
      note: (line) => options.log?.(line),
      count: (t, countOptions) => transport.count(t, countOptions),
    };
  }

  /** The options it was made with, but its run's record and Events (the write chain's). */
  get options(): Readonly<Omit<KubeClientOptions, 'ledger' | 'notes'>> {
    const { ledger, notes, ...shown } = this.#options;
    return shown;
  }

  /** Who makes this call's changes, for the run's record. */
  get activity(): string {
    return this.#writer.activity;
  }

  get dryRun(): boolean {
    return this.#writer.dryRun;
  }

  /** The run's safety rails, when this client has any (an activity's has). */
  get safety(): Safety | undefined {
    return this.#writer.safety;
  }

  /** A line of what the rails considered, for the activity's log. */
  note(line: string): void {
    this.#writer.note(line);
  }

  /** A read (GET) of any path, answered as JSON; failures are ApiError. Writes go through `write`. */
  request<T>(options: RequestOptions & { method: 'GET' }, context: ApiRequestContext = {}): Promise<T> {
    if (options.method !== 'GET')
      return Promise.reject(
        new TypeError(`KubeClient.request reads only; ${options.method} goes through write`),
      );
    return this.#transport.request<T>(options, context);
  }

  get<T>(t: ResourceType, name: string, namespace?: string | null): Promise<T> {
    return this.#transport.get<T>(t, name, namespace);
  }

  /**
   * How many objects match: without a selector the server counts (one item asked for, the rest
   * in remainingItemCount); with one, the rows of the server's table of them, in one response.
   */
  count(t: ResourceType, options: CountOptions = {}): Promise<number> {
    return this.#transport.count(t, options);
  }

  /** One page of a list (items as the API sends them). */
  listPage<T>(t: ResourceType, options: ListOptions & { continue?: string }): Promise<Page<T>> {
    return this.#transport.listPage<T>(t, options);
  }

  /**
   * Every item, page after page, filtered on the server by the selectors; each next page is
   * asked for as soon as its token arrives, while the page before is parsed.
   */
  list<T>(t: ResourceType, options: ListOptions = {}): Promise<T[]> {
    return this.#transport.list<T>(t, options);
  }

  /**
   * `list`, with the resourceVersion the list was read at (to read another list as of it).
   * A next page refused with 410 Gone starts the list again from its first page, up to
   * LIST_RESTARTS times: the pages read so far are never returned, as they are not one list.
   */
  listWithVersion<T>(
    t: ResourceType,
    options: ListOptions = {},
  ): Promise<{ items: T[]; resourceVersion?: string }> {
    return this.#transport.listWithVersion<T>(t, options);
  }

  /** A subresource read as text (a pod's log), with retries. */
  text(t: ResourceType, name: string, namespace: string | null, subresource: string, query: Query = {}) {
    return this.#transport.text(t, name, namespace, subresource, query);
  }

  /**
   * Opens a watch and calls `onEvent` for each event, until the server ends it, the connection
   * breaks, or `stop()` is called. `done` tells which: `{ error }` for a broken connection or a
   * refused watch, `{ gone: true }` when the resourceVersion is too old (re-list, then re-watch).
   */
  watch<T>(t: ResourceType, options: WatchOptions, onEvent: (event: WatchEvent<T>) => void) {
    return this.#transport.watch<T>(t, options, onEvent);
  }

  /**
   * The one way a write reaches the cluster: the rails (refused before any request), the run's
   * confirmation, the record of the change in the run's ledger, then the send — a server-side
   * dry run in plan mode —, and after it the object's Event (events/, not awaited).
   */
  async write<T>(op: WriteOp): Promise<T> {
    await railWrite(this.#writer, op);
    const body = await recordWrite(this.#writer, op);
    const sent = await sendWrite<T>(this.#transport, op, {
      ...(body !== undefined ? { body } : {}),
      dryRun: this.dryRun,
    });
    afterWrite(this.#writer, op, sent);
    return sent;
  }

  /**
   * Many deletes, or many evictions: the rails, the confirmation and the record of all of them
   * before the first is sent; the batch then sends each (as the caller paces them).
   */
  batch(ops: readonly RemovalOp[], options: PodRemovalOptions = {}): Promise<Batch> {
    return prepareBatch(this.#writer, ops, options);
  }

  /**
   * Creates an object, marked with the run's id (or, outside a run, a call's own id). When a
   * retried create meets AlreadyExists (an earlier attempt may have been applied), the object
   * is read: it is this call's own if it carries this mark, otherwise the Conflict stands.
   */
  create<T>(t: ResourceType, body: unknown, options: WriteOptions = {}): Promise<T> {
    return this.write<T>({ verb: 'create', type: t, body, ...where(options) });
  }

  replace<T>(t: ResourceType, name: string, body: unknown, options: WriteOptions = {}): Promise<T> {
    const before = options.before !== undefined ? { before: options.before } : {};
    return this.write<T>({ verb: 'replace', type: t, name, body, ...where(options), ...before });
  }

  patch<T>(
    t: ResourceType,
    name: string,
    patch: unknown,
    type: PatchType,
    options: WriteOptions = {},
  ): Promise<T> {
    const before = options.before !== undefined ? { before: options.before } : {};
    return this.write<T>({
      verb: 'patch',
      type: t,
      name,
      patch,
      patchType: type,
      ...where(options),
      ...before,
    });
  }

  /**
   * Deletes an object. The run's record keeps it first, to create it again on a revert; a pod
   * is only noted (its controller replaces it).
   */
  delete<T = unknown>(
    t: ResourceType,
    name: string,
    options: WriteOptions & { body?: unknown } = {},
  ): Promise<T> {
    return this.write<T>({
      verb: 'delete',
      type: t,
      name,
      ...where(options),
      ...(options.before !== undefined ? { before: options.before } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
  }

  /** POST to a subresource of an object (a pod's eviction, noted in the run's record). */
  createSubresource<T>(
    t: ResourceType,
    name: string,
    subresource: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.write<T>(
      t === Pods && subresource === 'eviction'
        ? { verb: 'evict', type: t, name, body, ...where(options) }
        : { verb: 'subresource', type: t, name, subresource, body, ...where(options) },
    );
  }
}

/** A client of the cluster `secrets` point at (as an activity's would be), for scripts and tests. */
export function kubeClient(
  secrets: Record<string, unknown> = {},
  options: KubeClientOptions = {},
): KubeClient {
  return new KubeClient(connectionFor(createClusterClient(secrets)), options);
}
