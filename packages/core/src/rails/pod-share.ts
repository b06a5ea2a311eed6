// The pod share rail (D74, D88): no action removes more of a namespace's pods at once than the
// run allows, unless the experiment names its target.

import { Pods } from '../transport/resources.js';
import type { Railed } from './railed.js';

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
  writer: Railed,
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
    const total = await writer.count(Pods, { namespace });
    safety.checkPodShare(writer.activity, namespace, some.length, total);
    writer.note(
      `pod share rail: ${some.length} of ${Math.max(total, some.length)} pods of namespace '${namespace}', within the ${Math.round(safety.maxPodShare * 100)} % allowed`,
    );
  }
}
