import pLimit from 'p-limit';
import { ActivityFailed } from './errors.js';

export interface BulkOutcome<T> {
  succeeded: T[];
  failed: Array<{ item: T; error: unknown }>;
}

export interface BulkOptions<T> {
  /** How many requests at once (default 10): enough to be quick, few enough to spare the API. */
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
  const limit = pLimit(options.concurrency ?? 10);
  const outcome: BulkOutcome<T> = { succeeded: [], failed: [] };
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        try {
          await action(item);
          outcome.succeeded.push(item);
        } catch (error) {
          outcome.failed.push({ item, error });
        }
      }),
    ),
  );
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
