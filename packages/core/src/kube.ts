// What an activity asks of the cluster: objects by kind, name and namespace, as the JSON the
// API sends (no model conversion). One per activity call (ctx.kube), over the shared connection
// of its cluster: plan mode turns every mutation into a server-side dry run here, so no
// activity can forget to, and the call's signal aborts its requests.

import type { IncomingMessage } from 'node:http';
import { listAll, type Page } from './api.js';
import { createClusterClient } from './cluster-client.js';
import { type Connection, connectionFor, type Query, type RequestOptions } from './connection.js';
import { type ApiRequestContext, toApiError } from './errors.js';
import { collectionPath, objectPath, type ResourceType } from './resources.js';

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
}

export interface WriteOptions {
  namespace?: string | null;
  /** Extra query parameters (fieldManager, fieldValidation, gracePeriodSeconds…). */
  query?: Query;
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface KubeClientOptions {
  signal?: AbortSignal;
  /** Plan mode: every mutation is a server-side dry run (`dryRun=All`). */
  dryRun?: boolean;
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

  get<T>(t: ResourceType, name: string, namespace?: string | null): Promise<T> {
    return this.request<T>(
      { method: 'GET', path: objectPath(t, name, namespace) },
      named(t, 'get', name, namespace),
    );
  }

  /** One page of a list (items as the API sends them). */
  async listPage<T>(t: ResourceType, options: ListOptions & { continue?: string }): Promise<Page<T>> {
    const context = named(t, 'list', undefined, options.namespace);
    const query: Query = {
      limit: options.limit ?? 500,
      labelSelector: options.labelSelector || undefined,
      fieldSelector: options.fieldSelector || undefined,
      continue: options.continue,
    };
    const path = collectionPath(t, options.namespace);
    const page = await this.request<{
      items?: T[];
      metadata?: { continue?: string; resourceVersion?: string };
    }>({ method: 'GET', path, query }, context);
    return {
      items: page.items ?? [],
      metadata: {
        ...(page.metadata?.continue ? { _continue: page.metadata.continue } : {}),
        ...(page.metadata?.resourceVersion ? { resourceVersion: page.metadata.resourceVersion } : {}),
      },
    };
  }

  /** Every item, page after page, filtered on the server by the selectors. */
  list<T>(t: ResourceType, options: ListOptions = {}): Promise<T[]> {
    return listAll<T>(
      (page) =>
        this.listPage<T>(t, {
          ...options,
          limit: page.limit,
          ...(page._continue ? { continue: page._continue } : {}),
        }),
      { ...this.signalled(), ...(options.limit ? { limit: options.limit } : {}) },
    );
  }

  create<T>(t: ResourceType, body: unknown, options: WriteOptions = {}): Promise<T> {
    const name = (body as { metadata?: { name?: string } })?.metadata?.name;
    return this.request<T>(
      {
        method: 'POST',
        path: collectionPath(t, options.namespace),
        query: this.mutation(options.query),
        body,
      },
      named(t, 'create', name, options.namespace),
    );
  }

  replace<T>(t: ResourceType, name: string, body: unknown, options: WriteOptions = {}): Promise<T> {
    return this.request<T>(
      {
        method: 'PUT',
        path: objectPath(t, name, options.namespace),
        query: this.mutation(options.query),
        body,
      },
      named(t, 'update', name, options.namespace),
    );
  }

  patch<T>(
    t: ResourceType,
    name: string,
    patch: unknown,
    type: PatchType,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.request<T>(
      {
        method: 'PATCH',
        path: objectPath(t, name, options.namespace),
        query: this.mutation(options.query),
        body: patch,
        contentType: PATCH_CONTENT_TYPE[type],
      },
      named(t, 'patch', name, options.namespace),
    );
  }

  delete<T = unknown>(
    t: ResourceType,
    name: string,
    options: WriteOptions & { body?: unknown } = {},
  ): Promise<T> {
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

  /** POST to a subresource of an object (a pod's eviction). */
  createSubresource<T>(
    t: ResourceType,
    name: string,
    subresource: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<T> {
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
