// The rails of the write chain (client/kube-client.ts): what is checked before any write, and
// before its record — the namespace rail, then the run's confirmation.

import { describeOp, nameOf, type WriteOp } from '../transport/ops.js';
import { Namespaces } from '../transport/resources.js';
import type { Railed } from './railed.js';

/**
 * Before any change (and before its record): the namespace rail, then the run's confirmation
 * (not in plan mode). A pod's eviction is exempt from the namespace rail: a drain evicts the
 * system pods of a node as kubectl does, and the node rail decides whether that node may be
 * drained. `more`: how many writes of the same kind in the same namespace come with it.
 */
export async function railWrite(writer: Railed, op: WriteOp, more = 0): Promise<void> {
  const safety = writer.safety;
  if (!safety) return;
  if (op.verb !== 'evict') {
    const namespace = op.type === Namespaces ? nameOf(op) : op.type.namespaced ? op.namespace : undefined;
    safety.checkNamespace(writer.activity, namespace);
  }
  if (!writer.dryRun) {
    const what = describeOp(op);
    await safety.confirmChange(writer.activity, more > 0 ? `${what} (and ${more} more)` : what);
  }
}
