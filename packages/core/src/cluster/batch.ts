// Many deletes, or many evictions, as one write: the rails and the run's confirmation for all of
// them, then their record (one write per namespace for pods, one for other objects), before the
// first is sent. Sending is the caller's (bounded concurrency, retries of refusals), through the
// batch, which sends only its own writes.

import { type DeleteOp, type RemovalOp, sendWrite } from './ops.js';
import { Pods } from './resources.js';
import { rails, recordDeletes, recordPodRemoval, type Writer } from './steps.js';

export interface PodRemovalOptions {
  /**
   * The experiment names its target (a name, not a label selector, pattern or "all"): the pod
   * share rail, which guards against selections broader than meant, does not apply (D88).
   */
  named?: boolean;
}

type Named = { metadata?: { name?: string; namespace?: string } };

/**
 * The pod share rail (D74): refuses, before anything changes, removing more of a namespace's
 * pods at once than the run allows. An action that removes pods another way first (deleting
 * what owns them) calls it before it starts.
 */
export async function checkPodRemoval(
  writer: Writer,
  pods: readonly Named[],
  options: PodRemovalOptions = {},
): Promise<void> {
  const safety = writer.safety;
  if (!safety || pods.length === 0) return;
  if (options.named) {
    writer.note(
      `pod share rail: not applied to ${pods.length} pod(s): the experiment names its target (the rail guards selections)`,
    );
    return;
  }
  for (const [namespace, some] of Map.groupBy(pods, (o) => o.metadata?.namespace ?? '')) {
    const total = await writer.transport.count(Pods, { namespace });
    safety.checkPodShare(writer.activity, namespace, some.length, total);
    writer.note(
      `pod share rail: ${some.length} of ${Math.max(total, some.length)} pods of namespace '${namespace}', within the ${Math.round(safety.maxPodShare * 100)} % allowed`,
    );
  }
}

export interface Batch {
  /** Sends one of the batch's writes, its rails and record done (a dry run in plan mode). */
  send<T = unknown>(op: RemovalOp): Promise<T>;
}

/** The rails, the confirmation and the record of every write of the batch; then its sender. */
export async function prepareBatch(
  writer: Writer,
  ops: readonly RemovalOp[],
  options: PodRemovalOptions = {},
): Promise<Batch> {
  const first = ops[0];
  if (ops.some((op) => op.verb !== first?.verb || op.type !== first.type))
    throw new TypeError('a batch holds writes of one kind: deletes, or evictions, of one type');
  const byNamespace = Map.groupBy(ops, (op) => op.namespace ?? '');
  const pods = first?.type === Pods;
  // The rails before anything is recorded or sent: a refusal leaves everything in place.
  if (pods && first.verb === 'delete') {
    const named = ops.map((op) => ({ metadata: { name: op.name, namespace: op.namespace ?? '' } }));
    await checkPodRemoval(writer, named, options);
  }
  for (const some of byNamespace.values()) await rails(writer, some[0]!, some.length - 1);
  const ledger = writer.ledger;
  if (ledger && pods) {
    const how = first.verb === 'evict' ? 'evicted' : 'deleted';
    for (const [namespace, some] of byNamespace) {
      const names = some.map((op) => op.name);
      await recordPodRemoval(writer, ledger, namespace, names, how, options.named);
    }
  } else if (ledger && ops.length > 0) {
    await recordDeletes(writer, ledger, ops as DeleteOp[]);
  }
  const members = new Set(ops);
  return {
    send: <T>(op: RemovalOp) => {
      if (!members.has(op))
        return Promise.reject(new TypeError(`${op.verb} ${op.type.noun} '${op.name}' is not of this batch`));
      return sendWrite<T>(writer.transport, op, { dryRun: writer.dryRun });
    },
  };
}
