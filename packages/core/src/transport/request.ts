// A request to a cluster and its raw answer, as every layer of the transport passes them on;
// the connection (connection.ts) sends them.

import { ConfigurationError } from '../errors/errors.js';
import type { Answer } from './http2.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Query = Record<string, string | number | boolean | null | undefined>;

/**
 * The mark of a request that changes a cluster, set only by core's write path (ops.ts: the write
 * chain, the record, a revert) and its reviews (access.ts). The symbol leaves core in no export,
 * so whoever else holds a connection or a transport (the runner, an activity, a test helper)
 * reads with it and cannot write past the rails and the record: the connection refuses (D171).
 * It is the registry's symbol, not a fresh one, because two copies of core may be loaded side by
 * side (an extension installed with its own): each must accept the other's writes. Naming its
 * key outside core is the deliberate act a repository check forbids (test/layers.test.ts).
 */
export const CORE_WRITE: unique symbol = Symbol.for('chaoskit.core.write');

export interface RequestOptions {
  method: HttpMethod;
  /** Set by core's write path only: without it, a method other than GET is refused. */
  [CORE_WRITE]?: true;
  /** Absolute API path: `/api/v1/namespaces/default/pods`. */
  path: string;
  query?: Query;
  /** A JSON value (serialized here) or text sent as it is. */
  body?: unknown;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
  /**
   * How long retries may go on (ms, default RETRY_BUDGET_MS): 429s (after their Retry-After),
   * 5xx and dropped connections are retried with jittered backoff until then. 0: no retry.
   */
  retryBudgetMs?: number;
  /**
   * Reads a successful answer's body as it arrives instead of keeping it (its `body` is then
   * empty): called for each attempt, it returns what that attempt's chunks are given to. An
   * answer of 300 or more is kept whole, for its error.
   */
  read?: () => (chunk: string) => void;
  /**
   * Acts as this identity (Kubernetes' impersonation headers): the server judges the request as
   * theirs, and asks whether the client's own identity may impersonate them.
   */
  impersonate?: Impersonation;
}

/** Whom a request acts as: a user and, for a person, the groups the server knows them in. */
export interface Impersonation {
  user: string;
  /** Added for a service account by the server itself; a person's must be named. */
  groups?: readonly string[];
}

export interface RawResponse {
  status: number;
  headers: Answer['headers'];
  body: string;
  /** How many times the request was sent. */
  attempts: number;
  /** How many of its attempts were answered 429 Too Many Requests (retried or not). */
  throttled?: number;
  /**
   * An earlier attempt may have been applied (its connection broke, or the server failed with a
   * 5xx after receiving it): a create answered AlreadyExists must then be checked.
   */
  ambiguous: boolean;
}

/** `path` with `query` appended (values left out when undefined or null). */
export function withQuery(path: string, query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** Only core's write path changes a cluster (request.ts, CORE_WRITE): anything else is refused unsent. */
export function refuseUnmarkedWrite(options: RequestOptions): void {
  if (options.method === 'GET' || options[CORE_WRITE] === true) return;
  throw new ConfigurationError(
    `${options.method} ${options.path} was refused before it was sent: a change to a cluster goes through @chaoskit/core's client (ctx.kube), which rails and records it`,
  );
}
