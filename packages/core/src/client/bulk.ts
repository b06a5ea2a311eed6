import pLimit from 'p-limit';
import { Aborted, ActivityFailed, isApiError } from '../errors/errors.js';
import type { PodRemovalOptions } from '../rails/pod-share.js';
import { MAX_STREAMS } from '../transport/connection.js';
import type { DeleteOp } from '../transport/ops.js';
import type { ResourceType } from '../transport/resources.js';
import { KubeClient, transportOf, type WriteOptions } from './kube-client.js';

/**
 * How many requests a bulk action has out at most: as many as one HTTP/2 connection carries
 * (D156). Within it, how many go at once is the connection's throttle's to say, learnt from the
 * server (it grows while the server keeps up, backs off on 429 and on rising latency), and never
 * more than 16 over HTTP/1.1. At 16 here, a drain kept to 16 evictions at once over HTTP/2.
 */
export const DEFAULT_CONCURRENCY = MAX_STREAMS;

/** `fn` over `items`, at most `limit` at once; results in the order of `items`. */
export function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const run = pLimit(Math.max(1, limit));
  return Promise.all(items.map((item) => run(() => fn(item))));
}

/** What an abort's report calls the items: done, not done, and those whose request was out. */
export interface BulkWords {
  /** In the past tense: 'terminated'. */
  done: string;
  /** Default: 'not <done>'. */
  notDone?: string;
  /** The request was out when the abort came and its outcome is not known; default 'interrupted'. */
  interrupted?: string;
  /** What an abort's report adds, when it has items under way. */
  note?: string;
}

export interface BulkOptions<T> {
  /** How an item is named in messages. */
  name: (item: T) => string;
  /** What is done to each item, for the error: "delete pod", "evict pod". */
  verb: string;
  /** Stops starting items when it aborts; the error is then Aborted, saying what became of each. */
  signal?: AbortSignal;
  words?: BulkWords;
  /**
   * After an abort, what became of the items whose request was out: true done, false not done,
   * absent unknown (a look at the cluster, see `lookAfterAbort`).
   */
  settle?: (items: T[]) => Promise<Map<T, boolean>>;
}

/**
 * Runs `action` on every item with bounded concurrency. One failure does not stop or hide
 * the others: when any fail, the ActivityFailed names what succeeded and what did not. When the
 * signal aborts, no item starts any more and the error is Aborted, naming what was done, what
 * was not, and what was under way.
 */
export async function bulk<T>(
  items: readonly T[],
  action: (item: T) => Promise<unknown>,
  options: BulkOptions<T>,
): Promise<T[]> {
  const { signal } = options;
  const succeeded = new Set<T>();
  const failed: Array<{ item: T; error: unknown }> = [];
  const underWay: T[] = [];
  await mapLimit(items, DEFAULT_CONCURRENCY, async (item) => {
    if (signal?.aborted) return;
    try {
      await action(item);
      succeeded.add(item);
    } catch (error) {
      if (signal?.aborted) underWay.push(item);
      else failed.push({ item, error });
    }
  });
  const failures = failed.map(
    (f) => `${options.name(f.item)}: ${(f.error as Error).message ?? String(f.error)}`,
  );
  if (signal?.aborted) {
    const settled =
      options.settle && underWay.length > 0 ? await options.settle(underWay) : new Map<T, boolean>();
    const words = options.words ?? { done: 'done' };
    const names = (keep: (item: T) => boolean) => items.filter(keep).map(options.name);
    const unknown = (item: T) => underWay.includes(item) && !settled.has(item);
    const done = (item: T) => succeeded.has(item) || settled.get(item) === true;
    throw new Aborted(signal.reason, {
      progress: {
        [words.done]: names(done),
        [words.interrupted ?? 'interrupted']: names(unknown),
        [words.notDone ?? `not ${words.done}`]: names(
          (item) => !done(item) && !unknown(item) && !failed.some((f) => f.item === item),
        ),
        [`could not ${options.verb}`]: failures,
      },
      ...(words.note && underWay.length > 0 ? { note: words.note } : {}),
    });
  }
  if (failed.length > 0) {
    const done = items.filter((item) => succeeded.has(item)).map(options.name);
    throw new ActivityFailed(
      `could not ${options.verb} ${failed.length} of ${items.length}: ${failures.join('; ')}` +
        (done.length ? `. Done: ${done.join(', ')}` : '. None was done.'),
      { cause: failed[0]!.error },
    );
  }
  // Keep the input order, whatever order the requests finished in.
  return items.filter((item) => succeeded.has(item));
}

/** How long the look at the cluster after an abort may take, in all. */
const LOOK_MS = 10_000;

/**
 * A client for one last look after an abort, to report exactly what became of the targets whose
 * request was out when it came (the server may have applied it): reads only, bounded by its own
 * short timeout, since the caller's signal has aborted.
 */
export function lookAfterAbort(kube: KubeClient): KubeClient {
  const { middleware } = kube.options;
  return new KubeClient(transportOf(kube).connection, {
    signal: AbortSignal.timeout(LOOK_MS),
    ...(middleware ? { middleware } : {}),
  });
}

/**
 * Whether each object is on its way out, read after an abort: gone, being deleted, or replaced
 * by another of the same name (another uid). Unknown when it cannot be read.
 */
export async function removedAfterAbort<T extends Named>(
  kube: KubeClient,
  type: ResourceType,
  objects: readonly T[],
): Promise<Map<T, boolean>> {
  const look = lookAfterAbort(kube);
  const known = new Map<T, boolean>();
  await mapLimit(objects, DEFAULT_CONCURRENCY, async (o) => {
    try {
      const now = await look.get<{ metadata?: { uid?: string; deletionTimestamp?: string } }>(
        type,
        objectName(o),
        o.metadata?.namespace ?? null,
      );
      const uid = o.metadata?.uid;
      known.set(
        o,
        Boolean(now.metadata?.deletionTimestamp) || (uid !== undefined && now.metadata?.uid !== uid),
      );
    } catch (err) {
      if (isApiError(err, 'NotFound')) known.set(o, true);
    }
  });
  return known;
}

type Named = { metadata?: { name?: string; namespace?: string; uid?: string } };

export const objectName = (o: Named): string => o.metadata?.name ?? '';

/**
 * Deletes every object (bounded concurrency, through the call's client, so plan mode makes each
 * a dry run). The run's record notes them all first, in one write. An object already gone
 * counts as deleted: that is what was asked for. Returns the objects deleted, in their order.
 */
export async function deleteAll<T extends Named>(
  kube: KubeClient,
  type: ResourceType,
  objects: readonly T[],
  options: Pick<WriteOptions, 'query'> & PodRemovalOptions & { verb?: string; words?: BulkWords } = {},
): Promise<T[]> {
  const ops = objects.map(
    (o): DeleteOp => ({
      verb: 'delete',
      type,
      name: objectName(o),
      namespace: o.metadata?.namespace ?? null,
      before: o,
      ...(options.query ? { query: options.query } : {}),
    }),
  );
  const batch = await kube.batch(ops, options.named ? { named: true } : {});
  const opOf = new Map(objects.map((o, i) => [o, ops[i]!]));
  return bulk(
    objects,
    async (o) => {
      try {
        await batch.send(opOf.get(o)!);
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    },
    {
      name: objectName,
      verb: options.verb ?? `delete ${type.noun}`,
      words: options.words ?? { done: 'deleted' },
      ...(kube.options.signal ? { signal: kube.options.signal } : {}),
      settle: (under) => removedAfterAbort(kube, type, under),
    },
  );
}
