import { type KubeConfig, type KubernetesObject, Watch } from '@kubernetes/client-node';
import { ActivityFailed, type ApiRequestContext, toApiError } from './errors.js';

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

function errorCode(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

function retryAfterMs(err: unknown): number | undefined {
  const headers = (err as { headers?: Record<string, string> }).headers;
  const value = headers?.['retry-after'] ?? headers?.['Retry-After'];
  const seconds = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(seconds) ? Math.min(seconds * 1000, 10_000) : undefined;
}

export function isRetryable(err: unknown): boolean {
  const status = (err as { code?: unknown }).code;
  if (typeof status === 'number') return RETRYABLE_STATUS.has(status);
  const code = errorCode(err);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  signal?: AbortSignal;
  /** What is being read, for the error if every attempt fails. */
  context?: ApiRequestContext;
}

/**
 * Runs a read, retrying with exponential backoff (and the server's Retry-After) on 429, 5xx
 * and dropped connections. Only for reads: a retried write could apply twice.
 * Failures come out as ApiError.
 */
export async function withReadRetry<T>(read: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 200;
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err) || options.signal?.aborted)
        throw toApiError(err, options.context);
      const delay = retryAfterMs(err) ?? base * 2 ** (attempt - 1) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

export interface Page<T> {
  items: T[];
  metadata?: { _continue?: string; resourceVersion?: string };
}

/** Every item of a list, fetched page by page (`limit` per page), each page with retries. */
export async function listAll<T>(
  listPage: (params: { limit: number; _continue?: string }) => Promise<Page<T>>,
  options: RetryOptions & { limit?: number } = {},
): Promise<T[]> {
  const limit = options.limit ?? 500;
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await withReadRetry(
      () => listPage(token ? { limit, _continue: token } : { limit }),
      options,
    );
    items.push(...page.items);
    token = page.metadata?._continue || undefined;
  } while (token);
  return items;
}

export interface WatchUntilOptions<T extends KubernetesObject, R> {
  kubeConfig: KubeConfig;
  /** API path of the collection, e.g. `/apis/apps/v1/namespaces/default/deployments`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** The current list (with the same selectors); its resourceVersion starts the watch. */
  list: () => Promise<Page<T>>;
  /** Looked at after the list and after every change; a value other than undefined ends the wait. */
  until: (items: T[]) => R | undefined;
  /** Total time allowed, in milliseconds. */
  timeoutMs: number;
  /** Thrown when the time is up; it receives the last snapshot. */
  onTimeout: (items: T[]) => Error;
  signal?: AbortSignal;
  /** Called every `progressEveryMs` while waiting, with the elapsed time and the snapshot. */
  progress?: (elapsedMs: number, items: T[]) => void;
  progressEveryMs?: number;
  /** Ask the server to close each watch after this many seconds (it is then re-opened). */
  serverTimeoutSeconds?: number;
}

/**
 * Waits until a condition over a set of objects holds, using a list then a watch (never a
 * sleep loop). Returns as soon as `until` gives a value; re-opens the watch when the server
 * closes it, re-lists when the resourceVersion is too old; `timeoutMs` bounds the whole wait.
 */
export async function watchUntil<T extends KubernetesObject, R>(
  options: WatchUntilOptions<T, R>,
): Promise<R> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const objects = new Map<string, T>();
  const key = (o: T) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  const snapshot = () => [...objects.values()];

  let settle!: (value: R | Error) => void;
  const outcome = new Promise<R | Error>((resolve) => {
    settle = resolve;
  });
  let done = false;
  const finish = (value: R | Error) => {
    if (done) return;
    done = true;
    settle(value);
  };
  const check = () => {
    try {
      const value = options.until(snapshot());
      if (value !== undefined) finish(value);
    } catch (err) {
      finish(err as Error);
    }
  };

  const timer = setTimeout(() => finish(options.onTimeout(snapshot())), Math.max(0, deadline - Date.now()));
  const ticker = options.progress
    ? setInterval(() => options.progress!(Date.now() - started, snapshot()), options.progressEveryMs ?? 5000)
    : undefined;
  const onAbort = () => finish(new ActivityFailed('the wait was cancelled'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let current: AbortController | undefined;
  const relist = async (): Promise<string | undefined> => {
    const page = await withReadRetry(options.list, { signal: options.signal });
    objects.clear();
    for (const item of page.items) objects.set(key(item), item);
    check();
    return page.metadata?.resourceVersion;
  };

  const loop = async () => {
    let resourceVersion = await relist();
    while (!done) {
      const ended = await new Promise<{ err: unknown; gone: boolean }>((resolve) => {
        let gone = false;
        new Watch(options.kubeConfig)
          .watch(
            options.path,
            {
              allowWatchBookmarks: true,
              ...(options.serverTimeoutSeconds ? { timeoutSeconds: options.serverTimeoutSeconds } : {}),
              ...(resourceVersion ? { resourceVersion } : {}),
              ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}),
              ...(options.fieldSelector ? { fieldSelector: options.fieldSelector } : {}),
            },
            (type: string, obj: T & { code?: number }) => {
              if (type === 'ERROR') {
                gone = obj.code === 410;
                return;
              }
              if (obj.metadata?.resourceVersion) resourceVersion = obj.metadata.resourceVersion;
              if (type === 'BOOKMARK') return;
              if (type === 'DELETED') objects.delete(key(obj));
              else objects.set(key(obj), obj);
              check();
            },
            (err: unknown) => resolve({ err, gone }),
          )
          .then(
            (controller) => {
              current = controller;
              if (done) controller.abort();
            },
            (err: unknown) => resolve({ err, gone: (err as { statusCode?: number }).statusCode === 410 }),
          );
      });
      if (done) break;
      if (ended.gone) resourceVersion = await relist();
      else if (ended.err) await new Promise((r) => setTimeout(r, 200));
    }
  };
  loop().catch((err: unknown) => finish(toApiError(err) as Error));

  const result = await outcome;
  clearTimeout(timer);
  if (ticker) clearInterval(ticker);
  options.signal?.removeEventListener('abort', onAbort);
  current?.abort();
  if (result instanceof Error) throw result;
  return result;
}
