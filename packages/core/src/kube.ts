// What an activity asks of the cluster: objects by kind, name and namespace, as the JSON the
// API sends (no model conversion). One per activity call (ctx.kube), over the shared connection
// of its cluster: plan mode turns every mutation into a server-side dry run here, so no
// activity can forget to, and the call's signal aborts its requests.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Page } from './api.js';
import { createClusterClient } from './cluster-client.js';
import { type Connection, connectionFor, type Query, type RequestOptions } from './connection.js';
import { type ApiRequestContext, isApiError, toApiError } from './errors.js';
import { diffPointers, patchPointers } from './pointers.js';
import type { After, ClusterLedger } from './record/ledger.js';
import { isMarkPointer, type MarkChange, RUN_ANNOTATION } from './record/marks.js';
import { refOf } from './record/names.js';
import { collectionPath, Namespaces, objectPath, Pods, type ResourceType } from './resources.js';
import type { Safety } from './safety.js';

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface ListOptions {
  namespace?: string | null;
  labelSelector?: string | null;
  fieldSelector?: string | null;
  /** Items per page (default 500). */
  limit?: number;
  /**
   * Only each object's metadata (a `PartialObjectMetadataList`): for names, labels and owners,
   * a fraction of the bytes of whole objects.
   */
  metadataOnly?: boolean;
  /**
   * The list as of this resourceVersion or later (another list's, to agree with it): served from
   * the apiserver's cache, where an exact version would be read again from etcd.
   */
  resourceVersion?: string;
}

/** What `count` counts: the objects of a namespace (or all), filtered on the server. */
export type CountOptions = Pick<
  ListOptions,
  'namespace' | 'labelSelector' | 'fieldSelector' | 'resourceVersion'
>;

const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
// The server's table of a list without the objects: a row is a few hundred bytes, where a pod's
// metadata alone is kilobytes (managedFields).
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1,application/json';

// A list's metadata (and so its continue token) comes before its items: the next page can be
// asked for before this one is parsed.
const CONTINUE_TOKEN = /^\{[^[]*?"continue":"([^"]+)"/;

/** A list as of `resourceVersion` or later (from the apiserver's cache); none: the latest. */
function versionQuery(resourceVersion: string | undefined): Query {
  return resourceVersion ? { resourceVersion, resourceVersionMatch: 'NotOlderThan' } : {};
}

export interface WriteOptions {
  namespace?: string | null;
  /** Extra query parameters (fieldManager, fieldValidation, gracePeriodSeconds…). */
  query?: Query;
  /**
   * The object as it is now, when the caller has just read it: the run's record then takes the
   * fields' old values from it instead of reading the object again.
   */
  before?: unknown;
  /** The caller recorded this change already (a batch: deleteAll, a drain's evictions). */
  recorded?: boolean;
  /** Create without chaoskit's mark (a revert creating again what a run deleted, as it was). */
  unmarked?: boolean;
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface KubeClientOptions {
  signal?: AbortSignal;
  /** Plan mode: every mutation is a server-side dry run (`dryRun=All`). */
  dryRun?: boolean;
  /** The run's record on this cluster: every change is written to it first. */
  ledger?: ClusterLedger;
  /** Who makes the changes (`module.func`), for the record. */
  activity?: string;
  /** The run's safety rails: no change in a protected namespace, the confirmation asked first. */
  safety?: Safety;
  /** Where the rails say what they considered (the activity's log: the journal, `plan`). */
  log?: (line: string) => void;
}

// Of a server-side apply body, what it sets (its identity is not a change).
const applied = (pointer: string) =>
  isMarkPointer(pointer) ||
  ['/apiVersion', '/kind', '/metadata/name', '/metadata/namespace'].includes(pointer);

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

const named = (
  t: ResourceType,
  verb: string,
  name?: string,
  namespace?: string | null,
): ApiRequestContext => ({
  verb,
  resource: t.noun,
  ...(name ? { name } : {}),
  ...(t.namespaced && namespace ? { namespace } : {}),
});

function pageOf<T>(body: string): Page<T> {
  const page = JSON.parse(body) as {
    items?: T[];
    metadata?: { continue?: string; resourceVersion?: string };
  };
  return {
    items: page.items ?? [],
    metadata: {
      ...(page.metadata?.continue ? { _continue: page.metadata.continue } : {}),
      ...(page.metadata?.resourceVersion ? { resourceVersion: page.metadata.resourceVersion } : {}),
    },
  };
}

export class KubeClient {
  constructor(
    readonly connection: Connection,
    readonly options: KubeClientOptions = {},
  ) {}

  /** Any request, answered as JSON; failures are ApiError (with `context` in the message). */
  async request<T>(options: RequestOptions, context: ApiRequestContext = {}): Promise<T> {
    const res = await this.connection.send({ ...this.signalled(), ...options });
    if (res.status >= 400)
      throw toApiError({ code: res.status, body: res.body, headers: res.headers }, context);
    return (res.body ? JSON.parse(res.body) : undefined) as T;
  }

  private signalled(): { signal?: AbortSignal } {
    return this.options.signal ? { signal: this.options.signal } : {};
  }

  private mutation(query: Query | undefined): Query {
    return { ...query, ...(this.options.dryRun ? { dryRun: 'All' } : {}) };
  }

  /** The run's record, when this call records (not in plan mode, not for changes already recorded). */
  private recording(options: WriteOptions): ClusterLedger | undefined {
    return options.recorded ? undefined : this.ledger;
  }

  /** Who makes this call's changes, for the run's record. */
  get activity(): string {
    return this.options.activity ?? 'chaoskit';
  }

  /** The run's record of this call's changes, unless none is kept (no run, plan mode). */
  get ledger(): ClusterLedger | undefined {
    return this.options.dryRun ? undefined : this.options.ledger;
  }

  /** The run's safety rails, when this client has any (an activity's has; the ledger's has not). */
  get safety(): Safety | undefined {
    return this.options.safety;
  }

  /** A line of what the rails considered, for the activity's log. */
  note(line: string): void {
    this.options.log?.(line);
  }

  /**
   * Before any change (and before its record): the namespace rail, then the run's confirmation.
   * A pod's eviction is exempt from the namespace rail: a drain evicts the system pods of a
   * node as kubectl does, and the node rail decides whether that node may be drained.
   */
  async beforeChange(
    t: ResourceType,
    verb: string,
    name: string | undefined,
    namespace?: string | null,
    more = 0,
  ): Promise<void> {
    const safety = this.options.safety;
    if (!safety) return;
    if (!(t === Pods && verb === 'evict')) {
      safety.checkNamespace(this.activity, t === Namespaces ? name : t.namespaced ? namespace : undefined);
    }
    if (!this.options.dryRun) {
      const what = [verb, t.noun, name, t.namespaced && namespace ? `in namespace ${namespace}` : '']
        .filter(Boolean)
        .join(' ');
      await safety.confirmChange(this.activity, more > 0 ? `${what} (and ${more} more)` : what);
    }
  }

  /**
   * How many objects match: without a selector the server counts (one item asked for, the rest
   * in remainingItemCount); with one, the rows of the server's table of them, in one response.
   */
  async count(t: ResourceType, options: CountOptions = {}): Promise<number> {
    const context = named(t, 'list', undefined, options.namespace);
    const path = collectionPath(t, options.namespace);
    if (!options.labelSelector && !options.fieldSelector) {
      const page = await this.request<{
        items?: unknown[];
        metadata?: { continue?: string; remainingItemCount?: number };
      }>({ method: 'GET', path, query: { limit: 1 } }, context);
      const first = page.items?.length ?? 0;
      if (!page.metadata?.continue) return first;
      if (typeof page.metadata.remainingItemCount === 'number')
        return first + page.metadata.remainingItemCount;
    }
    const table = await this.request<{ rows?: unknown[] }>(
      {
        method: 'GET',
        path,
        accept: TABLE,
        query: {
          includeObject: 'None',
          labelSelector: options.labelSelector || undefined,
          fieldSelector: options.fieldSelector || undefined,
          ...versionQuery(options.resourceVersion),
        },
      },
      context,
    );
    return table.rows?.length ?? 0;
  }

  /** The object now, as the caller gave it or read from the cluster; undefined when it is gone. */
  private async current(t: ResourceType, name: string, options: WriteOptions): Promise<unknown> {
    if (options.before !== undefined) return options.before;
    try {
      return await this.get(t, name, options.namespace);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
  }

  /**
   * Records a write of `pointers` to the object, then gives the body with the run's marks: set
   * while the run's change is in place, taken off (or given back to the run under it) by a write
   * that undoes it.
   */
  private async recorded(
    t: ResourceType,
    name: string,
    options: WriteOptions,
    body: unknown,
    pointers: (current: unknown) => string[],
    after: After,
    style: 'merge' | 'whole',
  ): Promise<unknown> {
    const ledger = this.recording(options);
    if (!ledger) return body;
    const current = await this.current(t, name, options);
    // A missing object: the write fails as it would have, with nothing to record.
    if (current === undefined) return body;
    const ref = refOf(t, name, options.namespace);
    const marks = await ledger.beforeWrite(ref, current, after, pointers(current), this.activity);
    return marked(body, marks, style);
  }

  get<T>(t: ResourceType, name: string, namespace?: string | null): Promise<T> {
    return this.request<T>(
      { method: 'GET', path: objectPath(t, name, namespace) },
      named(t, 'get', name, namespace),
    );
  }

  /** The raw answer of one page of a list: its body is parsed by the caller. */
  private async sendPage(t: ResourceType, options: ListOptions & { continue?: string }): Promise<string> {
    const query: Query = {
      limit: options.limit ?? 500,
      labelSelector: options.labelSelector || undefined,
      fieldSelector: options.fieldSelector || undefined,
      continue: options.continue,
      ...(options.continue ? {} : versionQuery(options.resourceVersion)),
    };
    const res = await this.connection.send({
      ...this.signalled(),
      method: 'GET',
      path: collectionPath(t, options.namespace),
      query,
      ...(options.metadataOnly ? { accept: METADATA_ONLY } : {}),
    });
    if (res.status >= 400)
      throw toApiError(
        { code: res.status, body: res.body, headers: res.headers },
        named(t, 'list', undefined, options.namespace),
      );
    return res.body;
  }

  /** One page of a list (items as the API sends them). */
  async listPage<T>(t: ResourceType, options: ListOptions & { continue?: string }): Promise<Page<T>> {
    return pageOf<T>(await this.sendPage(t, options));
  }

  /**
   * Every item, page after page, filtered on the server by the selectors; each next page is
   * asked for as soon as its token arrives, while the page before is parsed.
   */
  async list<T>(t: ResourceType, options: ListOptions = {}): Promise<T[]> {
    return (await this.listWithVersion<T>(t, options)).items;
  }

  /** `list`, with the resourceVersion the list was read at (to read another list as of it). */
  async listWithVersion<T>(
    t: ResourceType,
    options: ListOptions = {},
  ): Promise<{ items: T[]; resourceVersion?: string }> {
    const items: T[] = [];
    let resourceVersion: string | undefined;
    let next: Promise<string> | undefined = this.sendPage(t, options);
    while (next) {
      const body: string = await next;
      const token = CONTINUE_TOKEN.exec(body)?.[1];
      next = token ? this.sendPage(t, { ...options, continue: token }) : undefined;
      const page = pageOf<T>(body);
      // A server that writes its metadata after the items: the token is known once parsed.
      const late = page.metadata?._continue;
      if (!token && late) next = this.sendPage(t, { ...options, continue: late });
      resourceVersion ??= page.metadata?.resourceVersion;
      for (const item of page.items) items.push(item);
    }
    return resourceVersion ? { items, resourceVersion } : { items };
  }

  /**
   * Creates an object, marked with the run's id (or, outside a run, a call's own id). When a
   * retried create meets AlreadyExists (an earlier attempt may have been applied), the object
   * is read: it is this call's own if it carries this mark, otherwise the Conflict stands.
   */
  async create<T>(t: ResourceType, body: unknown, options: WriteOptions = {}): Promise<T> {
    const name = (body as { metadata?: { name?: string } })?.metadata?.name;
    const context = named(t, 'create', name, options.namespace);
    await this.beforeChange(t, 'create', name, options.namespace);
    const ledger = this.recording(options);
    const marks: MarkChange =
      ledger && name
        ? await ledger.beforeCreate(refOf(t, name, options.namespace), this.activity)
        : options.unmarked
          ? {}
          : { [RUN_ANNOTATION]: `call-${randomBytes(6).toString('hex')}` };
    const mark = marks[RUN_ANNOTATION];
    const res = await this.connection.send({
      ...this.signalled(),
      method: 'POST',
      path: collectionPath(t, options.namespace),
      query: this.mutation(options.query),
      body: this.options.dryRun ? body : marked(body, marks, 'whole'),
    });
    if (res.status === 409 && res.ambiguous && name && mark) {
      const existing = await this.get<{ metadata?: { annotations?: Record<string, string> } }>(
        t,
        name,
        options.namespace,
      );
      if (existing.metadata?.annotations?.[RUN_ANNOTATION] === mark) return existing as T;
    }
    if (res.status >= 400)
      throw toApiError({ code: res.status, body: res.body, headers: res.headers }, context);
    return JSON.parse(res.body) as T;
  }

  async replace<T>(t: ResourceType, name: string, body: unknown, options: WriteOptions = {}): Promise<T> {
    await this.beforeChange(t, 'replace', name, options.namespace);
    const sent = await this.recorded(
      t,
      name,
      options,
      body,
      (current) => diffPointers(current, body, isMarkPointer),
      { whole: body },
      'whole',
    );
    return this.request<T>(
      {
        method: 'PUT',
        path: objectPath(t, name, options.namespace),
        query: this.mutation(options.query),
        body: sent,
      },
      named(t, 'update', name, options.namespace),
    );
  }

  async patch<T>(
    t: ResourceType,
    name: string,
    patch: unknown,
    type: PatchType,
    options: WriteOptions = {},
  ): Promise<T> {
    await this.beforeChange(t, 'patch', name, options.namespace);
    // A JSON Patch (a list of operations) is not recorded field by field: chaoskit's activities
    // write merge patches, server-side applies and whole objects.
    const sent =
      type === 'json'
        ? patch
        : await this.recorded(
            t,
            name,
            options,
            patch,
            () => patchPointers(patch, type === 'apply' ? applied : isMarkPointer),
            // A server-side apply is read as a merge of the fields it sets: what chaoskit's
            // applies send (custom objects' fields) merge that way.
            { merge: patch },
            type === 'apply' ? 'whole' : 'merge',
          );
    return this.request<T>(
      {
        method: 'PATCH',
        path: objectPath(t, name, options.namespace),
        query: this.mutation(options.query),
        body: sent,
        contentType: PATCH_CONTENT_TYPE[type],
      },
      named(t, 'patch', name, options.namespace),
    );
  }

  /**
   * Deletes an object. The run's record keeps it first, to create it again on a revert; a pod
   * is only noted (its controller replaces it).
   */
  async delete<T = unknown>(
    t: ResourceType,
    name: string,
    options: WriteOptions & { body?: unknown } = {},
  ): Promise<T> {
    await this.beforeChange(t, 'delete', name, options.namespace);
    const ledger = this.recording(options);
    if (ledger && t === Pods) {
      await ledger.beforePodRemoval({
        namespace: options.namespace ?? '',
        names: [name],
        activity: this.activity,
        how: 'deleted',
      });
    } else if (ledger) {
      const current = await this.current(t, name, options);
      if (isObj(current)) {
        await ledger.beforeDelete(
          [{ ref: refOf(t, name, options.namespace), object: current }],
          this.activity,
        );
      }
    }
    return this.request<T>(
      {
        method: 'DELETE',
        path: objectPath(t, name, options.namespace),
        query: this.mutation(options.query),
        ...(options.body !== undefined ? { body: options.body } : {}),
      },
      named(t, 'delete', name, options.namespace),
    );
  }

  /** POST to a subresource of an object (a pod's eviction, noted in the run's record). */
  async createSubresource<T>(
    t: ResourceType,
    name: string,
    subresource: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<T> {
    const eviction = t === Pods && subresource === 'eviction';
    await this.beforeChange(t, eviction ? 'evict' : `create ${subresource} of`, name, options.namespace);
    const ledger = this.recording(options);
    if (ledger && eviction) {
      await ledger.beforePodRemoval({
        namespace: options.namespace ?? '',
        names: [name],
        activity: this.activity,
        how: 'evicted',
      });
    }
    return this.request<T>(
      {
        method: 'POST',
        path: objectPath(t, name, options.namespace, subresource),
        query: this.mutation(options.query),
        body,
      },
      named(t, `create ${subresource} of`, name, options.namespace),
    );
  }

  /** A subresource read as text (a pod's log), with retries. */
  async text(
    t: ResourceType,
    name: string,
    namespace: string | null,
    subresource: string,
    query: Query = {},
  ) {
    const context = named(t, `read ${subresource} of`, name, namespace);
    const res = await this.connection.send({
      method: 'GET',
      path: objectPath(t, name, namespace, subresource),
      query,
      accept: '*/*',
      ...this.signalled(),
    });
    if (res.status >= 400)
      throw toApiError({ code: res.status, body: res.body, headers: res.headers }, context);
    return res.body;
  }

  /**
   * Opens a watch and calls `onEvent` for each event, until the server ends it, the connection
   * breaks, or `stop()` is called. `done` tells which: `{ error }` for a broken connection or a
   * refused watch, `{ gone: true }` when the resourceVersion is too old (re-list, then re-watch).
   */
  watch<T>(
    t: ResourceType,
    options: ListOptions & { resourceVersion?: string; timeoutSeconds?: number },
    onEvent: (event: WatchEvent<T>) => void,
  ): { done: Promise<{ gone?: boolean; error?: unknown }>; stop: () => void } {
    const controller = new AbortController();
    const outer = this.options.signal;
    const onAbort = () => controller.abort();
    outer?.addEventListener('abort', onAbort, { once: true });
    const done = (async (): Promise<{ gone?: boolean; error?: unknown }> => {
      let res: IncomingMessage;
      try {
        res = await this.connection.open({
          method: 'GET',
          path: collectionPath(t, options.namespace),
          query: {
            watch: 'true',
            allowWatchBookmarks: 'true',
            labelSelector: options.labelSelector || undefined,
            fieldSelector: options.fieldSelector || undefined,
            resourceVersion: options.resourceVersion,
            timeoutSeconds: options.timeoutSeconds,
          },
          signal: controller.signal,
        });
      } catch (error) {
        return { error };
      }
      if ((res.statusCode ?? 0) >= 400) {
        let body = '';
        res.setEncoding('utf8');
        for await (const chunk of res) body += chunk;
        const error = toApiError(
          { code: res.statusCode, body },
          named(t, 'watch', undefined, options.namespace),
        );
        return res.statusCode === 410 ? { gone: true } : { error };
      }
      let buffer = '';
      try {
        res.setEncoding('utf8');
        for await (const chunk of res) {
          buffer += chunk;
          for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (!line) continue;
            const event = JSON.parse(line) as WatchEvent<T>;
            if (event.type === 'ERROR') {
              const status = event.object as { code?: number };
              return status.code === 410
                ? { gone: true }
                : { error: toApiError({ code: status.code, body: status }) };
            }
            onEvent(event);
          }
        }
        return {};
      } catch (error) {
        return controller.signal.aborted ? {} : { error };
      } finally {
        outer?.removeEventListener('abort', onAbort);
      }
    })();
    return { done, stop: () => controller.abort() };
  }
}

/** A client of the cluster `secrets` point at (as an activity's would be), for scripts and tests. */
export function kubeClient(
  secrets: Record<string, unknown> = {},
  options: KubeClientOptions = {},
): KubeClient {
  return new KubeClient(connectionFor(createClusterClient(secrets)), options);
}
