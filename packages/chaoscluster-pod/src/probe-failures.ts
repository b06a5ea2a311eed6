// How the pod probes say what they found: the selection in words, and one ActivityFailed that
// names the pods that are not as expected.

import { ActivityFailed } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';

export const phaseOf = (pod: V1Pod): string => pod.status?.phase ?? 'without a phase';

/** "pods matching 'app=web' in namespace 'shop'" (or every pod of the namespace). */
export function describeSelection(labelSelector: string | null | undefined, ns: string): string {
  return labelSelector
    ? `pods matching '${labelSelector}' in namespace '${ns}'`
    : `pods of namespace '${ns}'`;
}

export function noPodMatched(labelSelector: string | null | undefined, ns: string): ActivityFailed {
  return new ActivityFailed(
    labelSelector
      ? `no pod matched label selector '${labelSelector}' in namespace '${ns}'`
      : `no pod in namespace '${ns}'`,
  );
}

const SHOWN = 10;

/** One ActivityFailed naming every pod that is not as expected (the first ten, then a count). */
export function notAsExpected(problems: readonly string[], of: number, what: string): ActivityFailed {
  const shown = problems.slice(0, SHOWN).join('; ');
  const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
  return new ActivityFailed(`${problems.length} of ${of} ${what}: ${shown}${more}`);
}
