// Chaos Toolkit's `http` provider (chaostoolkit-lib 1.45.0), on Node's global fetch; D69
// (docs/decisions.md) for the content types.
//
// - `url`, `headers`, `timeout` and `arguments` are substituted with the configuration and
//   secrets (deliberately always; upstream skips `arguments` when both are empty).
// - `method` defaults to GET (upper-cased). GET and HEAD send `arguments` as the query string
//   (a mapping: null values dropped, list values repeated; a string: appended as it is).
//   Other methods send a JSON body when the request's `Content-Type` header is
//   application/json (header name case-insensitive, parameters such as `; charset=utf-8`
//   allowed — upstream wants the exact string), else a form-encoded body (a string is sent as
//   it is).
// - `timeout`: seconds, or `[connect, read]`; fetch has a single deadline, so a pair is their
//   sum. It covers reading the body. Too long → `activity took too long to complete`.
// - Output `{status, headers, body}`: header names lower-case (several `set-cookie` joined with
//   ", "); `body` is parsed JSON when the response's media type is application/json (a
//   `; charset=…` suffix allowed — upstream requires the exact string), falling back to the
//   text when it does not parse; else the text.
// - HTTP status codes never fail the activity. `expected_status` (spec only) and
//   `max_retries` are ignored, as upstream ignores the former and defaults the latter to 0.
// - Network errors → `failed to connect to <url>: <reason>`. An aborted `opts.signal` rejects
//   with the signal's reason.
// - `verify_tls: false` (https only) uses the `undici` package's own fetch with an Agent that
//   does not verify certificates (Node's built-in fetch refuses an Agent from another undici
//   major).

import { ActivityFailed } from '@chaoskit/core';
import { renderForSubstitution, substitute } from '@chaoskit/core/runner';
import { context, propagation } from '@opentelemetry/api';
import type { Agent } from 'undici';
import { exportsOf } from './common-js.js';

type Configuration = Record<string, unknown> | null | undefined;
type Secrets = Record<string, Record<string, unknown>> | null | undefined;

/** An http provider as an experiment declares it: its values are checked here, as it runs. */
export interface HttpProvider {
  type?: 'http';
  url?: unknown;
  method?: unknown;
  /** A mapping of header names to values. */
  headers?: unknown;
  arguments?: unknown;
  /** Seconds, or `[connect, read]` seconds. */
  timeout?: unknown;
  verify_tls?: unknown;
  /** In the Chaos Toolkit spec, ignored by its implementation and here. */
  expected_status?: unknown;
  max_retries?: unknown;
}

export interface HttpOptions {
  configuration?: Configuration;
  secrets?: Secrets;
  signal?: AbortSignal;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const PLACEHOLDER = /^\$\{[_a-zA-Z][_a-zA-Z0-9]*\}$/;

const isPositive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/** The first problem with an http provider, or undefined. */
export function validateHttpProvider(provider: unknown): string | undefined {
  if (!isMapping(provider)) return 'a HTTP provider must be a mapping';
  const { url, method, headers, timeout } = provider;
  if (typeof url !== 'string' || !url.trim()) return 'a HTTP activity must have a URL';
  if (!url.includes('$')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `HTTP activity URL '${url}' is invalid`;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return `HTTP activity URL '${url}' must use http or https`;
    }
  }
  if (method !== undefined && method !== null && (typeof method !== 'string' || !method.trim())) {
    return 'a HTTP activity method must be a non-empty string';
  }
  if (headers !== undefined && headers !== null && !isMapping(headers)) {
    return 'a HTTP activity expects headers as a mapping';
  }
  if (timeout !== undefined && timeout !== null && timeoutProblem(timeout)) {
    return `a HTTP activity timeout must be a number of seconds or a pair [connect, read], got ${JSON.stringify(timeout)}`;
  }
  if (provider.verify_tls !== undefined && typeof provider.verify_tls !== 'boolean') {
    return 'a HTTP activity verify_tls must be a boolean';
  }
  return undefined;
}

function timeoutProblem(timeout: unknown): boolean {
  if (typeof timeout === 'string') return !PLACEHOLDER.test(timeout);
  if (Array.isArray(timeout)) {
    return !(
      timeout.length === 2 &&
      timeout.every((t) => isPositive(t) || (typeof t === 'string' && PLACEHOLDER.test(t)))
    );
  }
  return !isPositive(timeout);
}

/** Milliseconds, undefined for none; throws ActivityFailed on a value that is not a timeout. */
function timeoutMs(timeout: unknown): number | undefined {
  if (timeout === undefined || timeout === null) return undefined;
  if (isPositive(timeout)) return timeout * 1000;
  if (Array.isArray(timeout) && timeout.length === 2) {
    const [connect, read] = timeout as unknown[];
    if (isPositive(connect) && isPositive(read)) return (connect + read) * 1000;
  }
  throw new ActivityFailed(
    `http activity timeout must be a number of seconds or a pair [connect, read], got ${JSON.stringify(timeout)}`,
  );
}

const mediaType = (contentType: string | null | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

function appendParams(params: URLSearchParams, args: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(args)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) params.append(key, renderForSubstitution(item));
    }
  }
}

/** The innermost meaningful message of a fetch failure (`connect ECONNREFUSED …`). */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; code?: unknown; cause?: unknown };
    if (e.cause !== undefined) {
      const inner = describe(e.cause);
      if (inner) return inner;
    }
    if (typeof e.message === 'string' && e.message) return e.message;
    if (typeof e.code === 'string') return e.code;
  }
  return error === undefined ? '' : String(error);
}

// undici (its 100-odd modules) is loaded only when an experiment turns verification off.
async function insecureFetch(): Promise<{ fetch: typeof fetch; dispatcher: Agent; close(): Promise<void> }> {
  const { Agent, fetch: undiciFetch } = exportsOf(await import('undici'));
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
  return { fetch: undiciFetch as unknown as typeof fetch, dispatcher, close: () => dispatcher.close() };
}

/** Runs an http provider: `{status, headers, body}`; HTTP error statuses are not failures. */
export async function runHttp(provider: HttpProvider, opts: HttpOptions = {}): Promise<HttpResult> {
  const { configuration, secrets, signal } = opts;
  signal?.throwIfAborted();
  const url = substitute(provider.url, configuration, secrets);
  if (typeof url !== 'string' || !url) throw new ActivityFailed('a HTTP activity must have a URL');
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ActivityFailed(`HTTP activity URL '${url}' is invalid`);
  }
  const method = (typeof provider.method === 'string' && provider.method.trim() ? provider.method : 'GET')
    .trim()
    .toUpperCase();
  const rawHeaders = substitute(provider.headers ?? {}, configuration, secrets);
  if (!isMapping(rawHeaders)) throw new ActivityFailed('a HTTP activity expects headers as a mapping');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawHeaders)) {
    if (value !== null && value !== undefined) headers[name] = renderForSubstitution(value);
  }
  // The run's trace context (W3C traceparent) when traces are on, unless the experiment sets its own.
  const traced: Record<string, string> = {};
  propagation.inject(context.active(), traced);
  const given = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(traced)) if (!given.has(name)) headers[name] = value;
  const args = substitute(provider.arguments, configuration, secrets);
  const deadline = timeoutMs(substitute(provider.timeout, configuration, secrets));

  let body: string | URLSearchParams | undefined;
  if (args !== undefined && args !== null) {
    if (method === 'GET' || method === 'HEAD') {
      if (typeof args === 'string') {
        if (args) target.search = target.search ? `${target.search}&${args}` : `?${args}`;
      } else if (isMapping(args)) {
        appendParams(target.searchParams, args);
      } else {
        throw new ActivityFailed(
          `http activity arguments of a ${method} must be a mapping or a query string`,
        );
      }
    } else {
      const contentType = Object.entries(headers).find(
        ([name]) => name.toLowerCase() === 'content-type',
      )?.[1];
      if (mediaType(contentType) === 'application/json') body = JSON.stringify(args);
      else if (typeof args === 'string') body = args;
      else if (isMapping(args)) {
        body = new URLSearchParams();
        appendParams(body, args);
      } else {
        throw new ActivityFailed(
          'http activity arguments must be a mapping or a string unless Content-Type is application/json',
        );
      }
    }
  }

  const insecure =
    provider.verify_tls === false && target.protocol === 'https:' ? await insecureFetch() : undefined;
  const doFetch = insecure?.fetch ?? fetch;
  const timer = new AbortController();
  const timeout = deadline === undefined ? undefined : setTimeout(() => timer.abort(), deadline);
  const signals = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  const fail = (error: unknown): unknown => {
    if (timer.signal.aborted) return new ActivityFailed('activity took too long to complete');
    if (signal?.aborted) return signal.reason;
    if (error instanceof ActivityFailed) return error;
    return new ActivityFailed(`failed to connect to ${url}: ${describe(error)}`, { cause: error });
  };
  try {
    let response: Response;
    try {
      response = await doFetch(target, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: signals,
        redirect: 'follow',
        ...(insecure ? { dispatcher: insecure.dispatcher } : {}),
      } as RequestInit);
    } catch (error) {
      throw fail(error);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw fail(error);
    }
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) responseHeaders['set-cookie'] = cookies.join(', ');
    let parsed: unknown = text;
    if (mediaType(response.headers.get('content-type')) === 'application/json') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: responseHeaders, body: parsed };
  } finally {
    if (timeout) clearTimeout(timeout);
    await insecure?.close().catch(() => undefined);
  }
}
