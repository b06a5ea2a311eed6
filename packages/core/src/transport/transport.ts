// The road every request to a cluster takes, below the write chain (client/kube-client.ts):
// requests answered as JSON, lists, watches and streams, over the shared connection of one
// cluster, aborted by one signal, each seen by the middleware before it goes and after it ends.
// It applies no rail, keeps no record and sends no dry run: what the record and revert use.
// Every request is a span of the run's trace (telemetry.ts: a no-op unless the runner traces).

import { type ApiRequestContext, toApiError } from '../errors/errors.js';
import { requestSpan } from '../telemetry/telemetry.js';
import type { Connection } from './connection.js';
import type { Answer } from './http2.js';
import { type CountOptions, count, type ListOptions, listPage, listWithVersion, type Page } from './lists.js';
import type { HttpMethod, Impersonation, Query, RawResponse, RequestOptions } from './request.js';
import { objectPath, type ResourceType, requestContext } from './resources.js';
import { type WatchEvent, type WatchOptions, watch } from './watch.js';

/** A request about to be sent: what the middleware's `before` sees. */
export interface RequestEvent {
  method: HttpMethod;
  /** The API path, without the server and without the query: `/api/v1/namespaces/ns/pods`. */
  path: string;
  query?: Query;
}

/** A request ended: its answer's status, or the error it ended with. */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status of the answer (absent when none came). */
  status?: number;
  /** From before the first attempt to the answer (or failure), retries included. */
  durationMs: number;
  /** How many times it was sent (the connection retries 429, 5xx and dropped connections). */
  attempts?: number;
  error?: unknown;
}

/**
 * Seen before and after every request of a transport (a watch or stream: until its answer's
 * headers). Where tracing and request counting live; what a hook throws fails the request.
 */
export interface TransportMiddleware {
  before?(request: RequestEvent): void;
  after?(response: ResponseEvent): void;
}

export interface TransportOptions {
  /** Aborts every request of this transport. */
  signal?: AbortSignal;
  middleware?: readonly TransportMiddleware[];
  /** Every request acts as this identity (impersonation). */
  actingAs?: Impersonation;
}

export class Transport {
  constructor(
    readonly connection: Connection,
    readonly options: TransportOptions = {},
  ) {}

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  /** The same road with another signal (a look at the cluster after an abort). */
  withSignal(signal: AbortSignal | undefined): Transport {
    return new Transport(this.connection, { ...this.options, signal });
  }

  /**
   * The same road, every request acting as `identity`: the server judges each as theirs, so
   * nothing sent through it can do what they may not (and the client's own identity must be
   * allowed to impersonate them).
   */
  as(identity: Impersonation): Transport {
    return new Transport(this.connection, { ...this.options, actingAs: identity });
  }

  /** Whom the requests act as, when not the client's own identity. */
  get actingAs(): Impersonation | undefined {
    return this.options.actingAs;
  }

  /** Sends a request and reads its answer, whatever its status (retries are the connection's). */
  send(options: RequestOptions): Promise<RawResponse> {
    return this.observed(options, async () => {
      const res = await this.connection.send({ ...this.signalled(), ...options });
      return {
        value: res,
        status: res.status,
        attempts: res.attempts,
        ...(res.throttled ? { throttled: res.throttled } : {}),
      };
    });
  }

  /** Opens a request and gives its answer as a stream (a watch, a followed log). */
  open(options: RequestOptions): Promise<Answer> {
    return this.observed(options, async () => {
      const res = await this.connection.open({ ...this.signalled(), ...options });
      return { value: res, ...(res.statusCode !== undefined ? { status: res.statusCode } : {}) };
    });
  }

  /** Any request, answered as JSON; failures are ApiError (with `context` in the message). */
  async request<T>(options: RequestOptions, context: ApiRequestContext = {}): Promise<T> {
    const res = await this.send(options);
    if (res.status >= 400)
      throw toApiError({ code: res.status, body: res.body, headers: res.headers }, context);
    return (res.body ? JSON.parse(res.body) : undefined) as T;
  }

  get<T>(t: ResourceType, name: string, namespace?: string | null): Promise<T> {
    return this.request<T>(
      { method: 'GET', path: objectPath(t, name, namespace) },
      requestContext(t, 'get', name, namespace),
    );
  }

  /** How many objects match (see lists.ts). */
  count(t: ResourceType, options: CountOptions = {}): Promise<number> {
    return count((o) => this.send(o), t, options);
  }

  /** One page of a list (items as the API sends them). */
  listPage<T>(t: ResourceType, options: ListOptions & { continue?: string }): Promise<Page<T>> {
    return listPage<T>((o) => this.send(o), t, options);
  }

  /** Every item, page after page, filtered on the server by the selectors. */
  async list<T>(t: ResourceType, options: ListOptions = {}): Promise<T[]> {
    return (await this.listWithVersion<T>(t, options)).items;
  }

  /** `list`, with the resourceVersion the list was read at (see lists.ts). */
  listWithVersion<T>(
    t: ResourceType,
    options: ListOptions = {},
  ): Promise<{ items: T[]; resourceVersion?: string }> {
    return listWithVersion<T>((o) => this.send(o), t, options);
  }

  /** A subresource read as text (a pod's log), with retries. */
  async text(
    t: ResourceType,
    name: string,
    namespace: string | null,
    subresource: string,
    query: Query = {},
  ): Promise<string> {
    const res = await this.send({
      method: 'GET',
      path: objectPath(t, name, namespace, subresource),
      query,
      accept: '*/*',
    });
    if (res.status >= 400)
      throw toApiError(
        { code: res.status, body: res.body, headers: res.headers },
        requestContext(t, `read ${subresource} of`, name, namespace),
      );
    return res.body;
  }

  /** A watch of a kind's objects (see watch.ts). */
  watch<T>(
    t: ResourceType,
    options: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
  ): { done: Promise<{ gone?: boolean; error?: unknown }>; stop: () => void } {
    return watch<T>((o) => this.open(o), this.options.signal, t, options, onEvent);
  }

  private signalled(): { signal?: AbortSignal; impersonate?: Impersonation } {
    return {
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      ...(this.options.actingAs ? { impersonate: this.options.actingAs } : {}),
    };
  }

  private async observed<T>(
    options: RequestOptions,
    go: () => Promise<{ value: T; status?: number; attempts?: number; throttled?: number }>,
  ): Promise<T> {
    const hooks = this.options.middleware ?? [];
    const endSpan = requestSpan(options.method, options.path, options.query?.dryRun === 'All');
    const event: RequestEvent = {
      method: options.method,
      path: options.path,
      ...(options.query ? { query: options.query } : {}),
    };
    for (const hook of hooks) hook.before?.(event);
    const started = performance.now();
    let ended: Omit<ResponseEvent, keyof RequestEvent | 'durationMs'>;
    let value: T;
    try {
      const answer = await go();
      value = answer.value;
      ended = {
        ...(answer.status !== undefined ? { status: answer.status } : {}),
        ...(answer.attempts !== undefined ? { attempts: answer.attempts } : {}),
      };
      endSpan({ ...ended, throttled: answer.throttled ?? 0, durationMs: performance.now() - started });
    } catch (error) {
      const failed = { ...event, durationMs: performance.now() - started, error };
      endSpan(failed);
      for (const hook of hooks) hook.after?.(failed);
      throw error;
    }
    const done = { ...event, ...ended, durationMs: performance.now() - started };
    for (const hook of hooks) hook.after?.(done);
    return value;
  }
}
