import pLimit from 'p-limit';
import { MAX_CONNECTIONS } from './connection.js';
import { ActivityFailed, isApiError } from './errors.js';
import type { KubeClient, WriteOptions } from './kube.js';
import { refOf } from './record/names.js';
import { reservedByOthers } from './record/reservations.js';
import { Pods, type ResourceType } from './resources.js';

/**
 * How many requests at once by default: as many as the cluster's connection pool holds (its
 * throttle narrows that on 429). Writes such as evictions wait on etcd more than on CPU: on
 * the bench's drain of 110 pods, 16 at once took 0.8 s where 10 took 1.2 s.
 */
export const DEFAULT_CONCURRENCY = MAX_CONNECTIONS;

/** `fn` over `items`, at most `limit` at once; results in the order of `items`. */
export function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const run = pLimit(Math.max(1, limit));
  return Promise.all(items.map((item) => run(() => fn(item))));
}

export interface BulkOutcome<T> {
  succeeded: T[];
  failed: Array<{ item: T; error: unknown }>;
}

export interface BulkOptions<T> {
  /** How many requests at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** How an item is named in messages. */
  name: (item: T) => string;
  /** What is done to each item, for the error: "delete pod", "evict pod". */
  verb: string;
}

/**
 * Runs `action` on every item with bounded concurrency. One failure does not stop or hide
 * the others: when any fail, the ActivityFailed names what succeeded and what did not.
 */
export async function bulk<T>(
  items: readonly T[],
  action: (item: T) => Promise<unknown>,
  options: BulkOptions<T>,
): Promise<T[]> {
  const outcome: BulkOutcome<T> = { succeeded: [], failed: [] };
  await mapLimit(items, options.concurrency ?? DEFAULT_CONCURRENCY, async (item) => {
    try {
      await action(item);
      outcome.succeeded.push(item);
    } catch (error) {
      outcome.failed.push({ item, error });
    }
  });
  if (outcome.failed.length > 0) {
    const failures = outcome.failed.map(
      (f) => `${options.name(f.item)}: ${(f.error as Error).message ?? String(f.error)}`,
    );
    const done = outcome.succeeded.map(options.name);
    throw new ActivityFailed(
      `could not ${options.verb} ${outcome.failed.length} of ${items.length}: ${failures.join('; ')}` +
        (done.length ? `. Done: ${done.join(', ')}` : '. None was done.'),
      { cause: outcome.failed[0]!.error },
    );
  }
  // Keep the input order, whatever order the requests finished in.
  return items.filter((item) => outcome.succeeded.includes(item));
}

type Named = { metadata?: { name?: string; namespace?: string } };

export const objectName = (o: Named): string => o.metadata?.name ?? '';

export interface PodRemovalOptions {
  /**
   * The experiment names its target (a name, not a label selector, pattern or "all"): the pod
   * share rail, which guards against selections broader than meant, does not apply (D91).
   */
  named?: boolean;
}

const byNamespace = <T extends Named>(items: readonly T[]) =>
  Map.groupBy(items, (o) => o.metadata?.namespace ?? '');

/**
 * The pod share rail (D74): refuses, before anything changes, removing more of a namespace's
 * pods at once than the run allows. An action that removes pods another way first (deleting
 * what owns them) calls it before it starts.
 */
export async function checkPodRemoval(
  kube: KubeClient,
  pods: readonly Named[],
  options: PodRemovalOptions = {},
): Promise<void> {
  if (!kube.safety || pods.length === 0) return;
  if (options.named) {
    kube.note(
      `pod share rail: not applied to ${pods.length} pod(s): the experiment names its target (the rail guards selections)`,
    );
    return;
  }
  for (const [namespace, some] of byNamespace(pods)) {
    const total = await kube.count(Pods, { namespace });
    kube.safety.checkPodShare(kube.activity, namespace, some.length, total);
    kube.note(
      `pod share rail: ${some.length} of ${Math.max(total, some.length)} pods of namespace '${namespace}', within the ${Math.round(kube.safety.maxPodShare * 100)} % allowed`,
    );
  }
}

/**
 * Records the pods about to be removed in the run's record, then — for a selection — checks
 * the share again with the pods other runs removed and still hold (D91): too many, and the
 * batch is taken back and the removal refused before any pod goes.
 */
export async function recordPodRemoval(
  kube: KubeClient,
  pods: readonly Named[],
  how: 'deleted' | 'evicted',
  options: PodRemovalOptions = {},
): Promise<void> {
  const ledger = kube.ledger;
  if (!ledger) return;
  for (const [namespace, some] of byNamespace(pods)) {
    const names = some.map(objectName);
    const batch = await ledger.beforePodRemoval({ namespace, names, activity: kube.activity, how });
    if (!batch || !kube.safety || options.named || how === 'evicted' || names.length <= 1) continue;
    const others = await reservedByOthers(ledger.client, await ledger.key(), ledger.runId, namespace);
    const extra = [...others.names].filter((name) => !names.includes(name)).length;
    if (extra === 0) continue;
    try {
      kube.safety.checkPodShare(
        kube.activity,
        namespace,
        names.length + extra,
        await kube.count(Pods, { namespace }),
        { pods: extra, runs: others.runs },
      );
    } catch (err) {
      await ledger.withdraw(batch);
      throw err;
    }
    kube.note(
      `pod share rail: with the ${extra} pod(s) runs ${others.runs.join(', ')} removed, still within the share`,
    );
  }
}

/**
 * Deletes every object (bounded concurrency, through the call's client, so plan mode makes each
 * a dry run). The run's record notes them all first, in one write. An object already gone
 * counts as deleted: that is what was asked for. Returns the objects deleted, in their order.
 */
export async function deleteAll<T extends Named>(
  kube: KubeClient,
  type: ResourceType,
  objects: readonly T[],
  options: Pick<WriteOptions, 'query'> & PodRemovalOptions & { verb?: string; concurrency?: number } = {},
): Promise<T[]> {
  // The rails before anything is recorded or deleted: a refusal leaves everything in place.
  if (type === Pods) await checkPodRemoval(kube, objects, options);
  for (const [namespace, some] of byNamespace(objects)) {
    const first = some[0];
    if (first) await kube.beforeChange(type, 'delete', objectName(first), namespace || null, some.length - 1);
  }
  const ledger = kube.ledger;
  if (type === Pods) await recordPodRemoval(kube, objects, 'deleted', options);
  else if (ledger) {
    await ledger.beforeDelete(
      objects.map((o) => ({
        ref: refOf(type, objectName(o), o.metadata?.namespace),
        object: o as unknown as Record<string, unknown>,
      })),
      kube.activity,
    );
  }
  return bulk(
    objects,
    async (o) => {
      try {
        await kube.delete(type, objectName(o), {
          namespace: o.metadata?.namespace ?? null,
          recorded: true,
          ...(options.query ? { query: options.query } : {}),
        });
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    },
    {
      name: objectName,
      verb: options.verb ?? `delete ${type.noun}`,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    },
  );
}
