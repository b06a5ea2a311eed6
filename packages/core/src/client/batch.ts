// Many deletes, or many evictions, as one write: the rails and the run's confirmation for all of
// them, then their record (one write per namespace for pods, one for other objects), before the
// first is sent. Sending is the caller's (bounded concurrency, retries of refusals), through the
// batch, which sends only its own writes.

import { checkPodRemoval, type PodRemovalOptions } from '../rails/pod-share.js';
import { railWrite } from '../rails/writes.js';
import { type DeleteOp, type RemovalOp, sendWrite } from '../transport/ops.js';
import { Pods } from '../transport/resources.js';
import { afterWrite, recordDeletes, recordPodRemoval, type Writer } from './record-step.js';

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
  for (const some of byNamespace.values()) await railWrite(writer, some[0]!, some.length - 1);
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
      return sendWrite<T>(writer.transport, op, { dryRun: writer.dryRun }).then((sent) => {
        afterWrite(writer, op, sent);
        return sent;
      });
    },
  };
}
