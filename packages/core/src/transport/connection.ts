// The one HTTP layer every request to a cluster goes through: one connection per cluster and
// identity — an HTTP/2 session when the server offers it, else a keep-alive HTTP/1.1 pool (the
// CA and client certificate read once, a token file re-read when it changes, an exec credential
// re-run when it expires) — built on Node's own http2 and https so that reaching a cluster loads
// no client library at all.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import type { Authenticator } from '../auth/authenticator.js';
import type { ClusterClient, ClusterConfig } from '../auth/cluster-client.js';
import { pemText } from '../auth/cluster-client.js';
import { authenticatorFor } from '../auth/credentials.js';
import { Aborted, ConfigurationError, errorCode, NetworkError, toApiError } from '../errors/errors.js';
import { abortable, pollUntil, sleep } from '../waiting/waiting.js';
import { type Answer, Http2Session, negotiate } from './http2.js';
import { notice } from './notices.js';
import { type RawResponse, type RequestOptions, refuseUnmarkedWrite, withQuery } from './request.js';
import { backoffMs, budgetRefusal, isRetryable, NEVER_SENT, RETRY_BUDGET_MS, retryAfterMs } from './retry.js';
import { type Outcome, Throttle } from './throttle.js';

const USER_AGENT = `chaoskit (node ${process.version})`;

/** How long a request retries a server that has not answered this process yet. */
export const FIRST_CONTACT_MS = 2_000;

/** How long /readyz refused (403) is taken for a server still starting. */
const READYZ_REFUSED_MS = 15_000;

/**
 * Over HTTP/1.1, how many connections one cluster gets at most (a request each): bulk work
 * reuses them instead of opening more.
 */
export const MAX_CONNECTIONS = 16;
/**
 * Over HTTP/2, how many requests go out at once at most on its one connection: client-go's
 * own bulk tools' 64, what the apiserver answers at its pace (D156).
 */
export const MAX_STREAMS = 64;

export class Connection {
  readonly server: URL;
  /**
   * How many requests go out at once (watches and streams aside), learnt from the server's
   * answers; reads and writes apart, as the apiserver limits them apart.
   */
  readonly throttles: { read: Throttle; write: Throttle };
  #agent: HttpAgent | undefined;
  #agentReady: Promise<HttpAgent> | undefined;
  #tls: Promise<ConnectionOptions> | undefined;
  /** Set once the server is known to speak HTTP/1.1 only (or is reached through a proxy, or plain http). */
  #http1: boolean;
  #http2: Http2Session | undefined;
  #http2Opening: Promise<Http2Session | undefined> | undefined;
  readonly #auth: Authenticator;
  /** Set when the server could not be reached: it may come back before it is ready. */
  #wasDown = false;
  /** Set once the server answered anything: a connection it refuses later may be a restart. */
  #answered = false;
  #readiness: { done: Promise<void>; stop: AbortController; waiting: number } | undefined;

  constructor(
    readonly config: ClusterConfig,
    readonly source: string,
  ) {
    this.server = new URL(config.server);
    this.#auth = authenticatorFor(config);
    this.#http1 = this.server.protocol !== 'https:' || Boolean(config.proxyUrl);
    const max = this.#http1 ? MAX_CONNECTIONS : MAX_STREAMS;
    this.throttles = { read: new Throttle(max), write: new Throttle(max) };
    if (this.server.protocol === 'http:' && !config.insecure) {
      throw new ConfigurationError(
        `the cluster's server is plain http; chaoskit talks to clusters over https only (or set CLUSTER_VERIFY_SSL=false to allow it)`,
      );
    }
  }

  /**
   * Sends a request and reads its answer, whatever its status. 429 (after the server's
   * Retry-After), 5xx and dropped connections are retried with jittered backoff within the
   * request's budget, at most as many at once as the throttle lets through (it narrows on 429).
   * Network failures that outlast the budget are NetworkError.
   */
  async send(options: RequestOptions): Promise<RawResponse> {
    refuseUnmarkedWrite(options);
    const { signal } = options;
    const started = Date.now();
    let deadline = started + (options.retryBudgetMs ?? RETRY_BUDGET_MS);
    const throttle = options.method === 'GET' ? this.throttles.read : this.throttles.write;
    let ambiguous = false;
    let askedAgain = false;
    let throttled = 0;
    for (let attempt = 1; ; attempt++) {
      if (this.#wasDown) await this.untilReady(deadline, signal);
      // The budget is for the server's refusals and failures: time queued behind this client's
      // own other requests does not count.
      const queued = Date.now();
      const ticket = await throttle.acquire(signal);
      deadline += Date.now() - queued;
      let res: RawResponse | undefined;
      let failure: unknown;
      let outcome: Outcome = 'other';
      let retryAfter: number | undefined;
      try {
        const stream = await this.open(options);
        stream.setEncoding('utf8');
        let body = '';
        const read = options.read && (stream.statusCode ?? 0) < 300 ? options.read() : undefined;
        for await (const chunk of stream) {
          if (read) read(chunk);
          else body += chunk;
        }
        if (stream.statusCode === 429) throttled++;
        res = {
          status: stream.statusCode ?? 0,
          headers: stream.headers,
          body,
          attempts: attempt,
          ambiguous,
          ...(throttled ? { throttled } : {}),
        };
        outcome =
          res.status === 429 && !budgetRefusal(res) ? 'overloaded' : res.status < 500 ? 'ok' : 'other';
        retryAfter = retryAfterMs(res);
      } catch (err) {
        failure = err;
      } finally {
        throttle.release(ticket, outcome, retryAfter);
      }
      // A restarting apiserver closes its idle connections cleanly and answers before its RBAC
      // informers have synced, refusing (401, 403) what it allows a moment later; no failure
      // announced the restart. A refusal is asked once more, once /readyz says ready: a real
      // one costs a readiness question and a repeat, neither of which changes anything.
      if ((res?.status === 401 || res?.status === 403) && !askedAgain && Date.now() < deadline) {
        askedAgain = true;
        await this.untilReady(deadline, signal);
        continue;
      }
      // A 429 of a PodDisruptionBudget refusing an eviction is an answer, not an overload: its
      // caller decides (drain_nodes retries it until its own timeout).
      if (res) this.#answered = true;
      // A server that never answered this process is not restarting: a connection it refuses,
      // a host it cannot be reached at, fails in seconds, as kubectl's does (not after the
      // minute a restart is given).
      if (!res && !this.#answered && NEVER_SENT.has(errorCode(failure) ?? ''))
        deadline = Math.min(deadline, started + FIRST_CONTACT_MS);
      const retryable = res ? isRetryable(res) && !budgetRefusal(res) : isRetryable(failure);
      const wait = retryAfter ?? backoffMs(attempt);
      // An answer that completed the request stands, aborted or not.
      if (signal?.aborted && (!res || retryable)) throw new Aborted(signal.reason);
      if (!retryable || Date.now() + wait > deadline) {
        if (res) return res;
        throw retryable && failure instanceof NetworkError
          ? new NetworkError(this.server.origin, failure.cause, this.source, {
              attempts: attempt,
              seconds: (Date.now() - started) / 1000,
              answeredBefore: this.#answered,
            })
          : failure;
      }
      // A 429, or a connection that was never made, changed nothing; the others may have.
      if (res ? res.status !== 429 : !NEVER_SENT.has(errorCode(failure) ?? '')) ambiguous = true;
      // No answer (refused or dropped): the server may be restarting, and answers before it is
      // ready; every request of the connection waits for /readyz before the next attempt.
      if (!res) {
        if (!this.#wasDown && this.#answered) notice(this.server.origin, failure);
        this.#wasDown = true;
      }
      await sleep(wait, signal);
    }
  }

  /**
   * After the server was unreachable (a restart), or refused a request, waits until it says it
   * is ready (`/readyz`): a restarting apiserver answers before its RBAC informers have synced,
   * and refuses (403) what it allows a moment later. One wait for every request of the
   * connection (each request stops waiting when its own signal aborts). /readyz itself is
   * authorized through RBAC (system:public-info-viewer), so a 403 from it means "not yet" until
   * READYZ_REFUSED_MS have passed (a cluster that never lets this identity ask); any other
   * answer that is not a 5xx ends the wait, a 401 (credentials the server does not take:
   * waiting would not change that) too. Past the deadline the request is sent all the same.
   */
  private untilReady(deadline: number, signal: AbortSignal | undefined): Promise<void> {
    if (!this.#readiness) {
      let refusedUntil: number | undefined;
      // The questions stop when no request waits for the answer any more.
      const stop = new AbortController();
      const done = pollUntil(
        async () => {
          const status = await this.open({ method: 'GET', path: '/readyz', accept: '*/*' }).then(
            (res) => {
              res.resume();
              return res.statusCode ?? 0;
            },
            () => 0,
          );
          if (status === 403) refusedUntil ??= Date.now() + READYZ_REFUSED_MS;
          const notYet =
            status === 0 || (status >= 500 && status < 600) || (status === 403 && Date.now() < refusedUntil!);
          return !notYet;
        },
        {
          what: 'the apiserver to be ready',
          timeoutMs: Math.max(0, deadline - Date.now()),
          intervalMs: backoffMs,
          signal: stop.signal,
        },
      ).then(
        () => {
          this.#wasDown = false;
        },
        () => undefined,
      );
      this.#readiness = { done, stop, waiting: 0 };
      void done.finally(() => {
        this.#readiness = undefined;
      });
    }
    const readiness = this.#readiness;
    readiness.waiting++;
    return abortable(readiness.done, signal).finally(() => {
      if (--readiness.waiting === 0) readiness.stop.abort();
    });
  }

  /** Sends one request and parses the JSON answer; a status of 400 or more is an ApiError. */
  async json<T>(options: RequestOptions): Promise<T> {
    const res = await this.send(options);
    if (res.status >= 400) throw toApiError({ code: res.status, body: res.body, headers: res.headers });
    return (res.body ? JSON.parse(res.body) : undefined) as T;
  }

  /** Opens a request and returns the response as a stream (watches, followed logs). */
  async open(options: RequestOptions): Promise<Answer> {
    refuseUnmarkedWrite(options);
    // Named in the apiserver's audit log (and in `kubectl get --raw /metrics` by client).
    const headers: Record<string, string | string[]> = {
      accept: options.accept ?? 'application/json',
      'user-agent': USER_AGENT,
    };
    const auth = await this.#auth.authorization();
    if (auth) headers.authorization = auth;
    const as =
      options.impersonate ?? (this.config.impersonate ? { user: this.config.impersonate } : undefined);
    if (as) {
      headers['impersonate-user'] = as.user;
      if (as.groups?.length) headers['impersonate-group'] = [...as.groups];
    }
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const path = withQuery(this.server.pathname.replace(/\/$/, '') + options.path, options.query);
    // Connecting is shared by the requests waiting for it: each stops waiting on its own signal.
    const http2 = await abortable(this.http2(), options.signal).catch((err: Error) => {
      throw this.networkError(err, options.signal);
    });
    if (http2)
      return http2
        .request({
          method: options.method,
          path,
          headers,
          ...(payload !== undefined ? { payload } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        })
        .catch((err: Error) => {
          throw this.networkError(err, options.signal);
        });
    const agent = await this.agent();
    const send = this.server.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(
        {
          protocol: this.server.protocol,
          hostname: this.server.hostname.replace(/^\[|\]$/g, ''),
          port: this.server.port || (this.server.protocol === 'https:' ? 443 : 80),
          method: options.method,
          path,
          headers,
          agent,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        resolve,
      );
      req.on('error', (err) => reject(this.networkError(err, options.signal)));
      req.end(payload);
    });
  }

  /**
   * The HTTP/2 session, opened on first use and again after the server closed the last one;
   * undefined when the server speaks HTTP/1.1 only (its throttles then keep to MAX_CONNECTIONS).
   */
  private async http2(): Promise<Http2Session | undefined> {
    if (this.#http1) return undefined;
    if (this.#http2?.usable) return this.#http2;
    this.#http2Opening ??= (async () => {
      const socket = await negotiate(this.server, await this.tls());
      if (!socket) {
        this.#http1 = true;
        this.throttles.read.limitTo(MAX_CONNECTIONS);
        this.throttles.write.limitTo(MAX_CONNECTIONS);
        return undefined;
      }
      this.#http2 = Http2Session.open(this.server, socket);
      return this.#http2;
    })().finally(() => {
      this.#http2Opening = undefined;
    });
    return this.#http2Opening;
  }

  private networkError(err: Error, signal: AbortSignal | undefined): Error {
    if (signal?.aborted) return new Aborted(signal.reason);
    return new NetworkError(this.server.origin, err, this.source);
  }

  /** The TLS material, read once (an exec plugin may hand out a client certificate: run first). */
  private tls(): Promise<ConnectionOptions> {
    this.#tls ??= (async () => {
      if (this.#auth.clientCertificate) await this.#auth.authorization();
      const handedOut = this.#auth.clientCertificate?.();
      return {
        ...(this.config.ca ? { ca: pemText(this.config.ca) } : {}),
        ...(this.config.clientCert
          ? { cert: pemText(this.config.clientCert.cert), key: pemText(this.config.clientCert.key) }
          : handedOut
            ? { cert: handedOut.cert, key: handedOut.key }
            : {}),
        ...(this.config.servername ? { servername: this.config.servername } : {}),
        rejectUnauthorized: !this.config.insecure,
      };
    })();
    return this.#tls;
  }

  /** The HTTP/1.1 pool: one per connection, built on first use. */
  private agent(): Promise<HttpAgent> {
    if (this.#agent) return Promise.resolve(this.#agent);
    this.#agentReady ??= (async () => {
      const tls = this.server.protocol === 'https:' ? await this.tls() : {};
      const pool = {
        keepAlive: true,
        maxSockets: MAX_CONNECTIONS,
        maxFreeSockets: MAX_CONNECTIONS,
        scheduling: 'lifo' as const,
      };
      if (this.config.proxyUrl) {
        const { HttpsProxyAgent, HttpProxyAgent } = await import('hpagent');
        const ProxyAgent = this.server.protocol === 'https:' ? HttpsProxyAgent : HttpProxyAgent;
        this.#agent = new ProxyAgent({ ...pool, ...tls, proxy: this.config.proxyUrl }) as HttpAgent;
      } else {
        this.#agent =
          this.server.protocol === 'https:' ? new HttpsAgent({ ...pool, ...tls }) : new HttpAgent(pool);
      }
      return this.#agent;
    })();
    return this.#agentReady;
  }

  /** Closes the pooled connections (idle ones close by themselves too). */
  close(): void {
    this.#http2?.close();
    this.#http2 = undefined;
    this.#agent?.destroy();
    this.#agent = undefined;
    this.#agentReady = undefined;
  }
}

// One pool per cluster and identity for the whole process: every activity call of a run
// reuses the connections of the previous ones.
const connections = new Map<string, Connection>();

/** The shared connection of a resolved cluster client. */
export function connectionFor(client: ClusterClient): Connection {
  const { auth, ...rest } = client.config;
  const key = JSON.stringify([rest, auth.kind === 'auth-provider' ? [auth.kind, auth.context] : auth]);
  let connection = connections.get(key);
  if (!connection) {
    connection = new Connection(client.config, client.source);
    connections.set(key, connection);
  }
  return connection;
}

/** Closes every pooled connection (a CLI does so before it exits). */
export function closeConnections(): void {
  for (const connection of connections.values()) connection.close();
  connections.clear();
}
