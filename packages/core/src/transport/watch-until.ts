import { Aborted, toApiError } from '../errors/errors.js';
import { sleep } from '../waiting/waiting.js';
import type { ListOptions } from './lists.js';
import type { ResourceType } from './resources.js';
import type { Transport } from './transport.js';

export interface WatchUntilOptions<T, R> {
  /** A KubeClient, or a transport: what lists and watches. */
  kube: Pick<Transport, 'listPage' | 'watch'>;
  type: ResourceType;
  /** Namespace and selectors of the objects watched (none: every one of the kind). */
  select?: Pick<ListOptions, 'namespace' | 'labelSelector' | 'fieldSelector'>;
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

type Meta = { metadata?: { name?: string; namespace?: string; resourceVersion?: string } };

/**
 * Waits until a condition over a set of objects holds, using a list then a watch (never a
 * sleep loop). Returns as soon as `until` gives a value; re-opens the watch when the server
 * closes it or the connection breaks (an apiserver restart), re-lists when the resourceVersion
 * is too old; `timeoutMs` bounds the whole wait.
 */
export async function watchUntil<T extends Meta, R>(options: WatchUntilOptions<T, R>): Promise<R> {
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
  const onAbort = () => finish(new Aborted(options.signal?.reason));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  let stopCurrent: (() => void) | undefined;
  const select = options.select ?? {};
  const relist = async (): Promise<string | undefined> => {
    const page = await options.kube.listPage<T>(options.type, { ...select, limit: 0 });
    objects.clear();
    for (const item of page.items) objects.set(key(item), item);
    check();
    return page.metadata?.resourceVersion;
  };

  const loop = async () => {
    let resourceVersion = await relist();
    while (!done) {
      const watch = options.kube.watch<T & { code?: number }>(
        options.type,
        {
          ...select,
          ...(resourceVersion ? { resourceVersion } : {}),
          ...(options.serverTimeoutSeconds ? { timeoutSeconds: options.serverTimeoutSeconds } : {}),
        },
        ({ type, object }) => {
          if (object.metadata?.resourceVersion) resourceVersion = object.metadata.resourceVersion;
          if (type === 'BOOKMARK') return;
          if (type === 'DELETED') objects.delete(key(object));
          else objects.set(key(object), object);
          check();
        },
      );
      stopCurrent = watch.stop;
      if (done) watch.stop();
      const ended = await watch.done;
      if (done) break;
      if (ended.gone) resourceVersion = await relist();
      else if (ended.error) {
        // A dropped connection (the apiserver restarting): wait a little, list again (the
        // retries of the list ride out the restart), then watch from there.
        await sleep(200, options.signal);
        resourceVersion = await relist();
      }
    }
  };
  loop().catch((err: unknown) => finish(toApiError(err) as Error));

  const result = await outcome;
  clearTimeout(timer);
  if (ticker) clearInterval(ticker);
  options.signal?.removeEventListener('abort', onAbort);
  stopCurrent?.();
  if (result instanceof Error) throw result;
  return result;
}
