// The rights a run --journal-to-cluster needs in the namespace its journal is kept in: what
// `chaoskit rbac --journal-to-cluster` prints, deploy binds, and the run checks before it starts.
import type { RbacRule } from '@chaoskit/core';
import { EVENT_RULES } from '@chaoskit/core/runner';

/**
 * Its ConfigMap created, then updated; read back after a retried create (core's write chain).
 * A deployment's runs change only the deployment's journals (`slots`), the oldest deleted to
 * make room: listed to find it.
 */
export function journalRules(slots?: readonly string[]): RbacRule[] {
  if (!slots) return [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] }];
  return [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'list'] },
    {
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['delete', 'get', 'update'],
      resourceNames: [...slots],
    },
  ];
}

export const JOURNAL_RULES: readonly RbacRule[] = journalRules();

/**
 * How many journals a deployment keeps: one for a Job; for a CronJob, its history (3 succeeded,
 * 3 failed, deploy/manifests.ts) and the run under way.
 */
export const journalSlotCount = (scheduled: boolean) => (scheduled ? 7 : 1);

/** The names of a deployment's journals (`CHAOSKIT_JOURNAL_SLOTS` of them). */
export const journalSlots = (deployment: string, count: number): string[] =>
  Array.from({ length: count }, (_, n) => `chaoskit-journal-${deployment}-${n}`);

/** The Events on the run's Job (core/v1 Events, as on the objects a run changes). */
export const JOB_EVENT_RULES: readonly RbacRule[] = EVENT_RULES;
