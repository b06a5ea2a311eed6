// The rights a run --journal-to-cluster needs in the namespace its journal is kept in: what
// `chaoskit rbac --journal-to-cluster` prints, deploy binds, and the run checks before it starts.
import type { RbacRule } from '@chaoskit/core';
import { EVENT_RULES } from '@chaoskit/core/runner';

/** Its ConfigMap created, then updated; read back after a retried create (core's write chain). */
export const JOURNAL_RULES: readonly RbacRule[] = [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] },
];
/** The Events on the run's Job (core/v1 Events, as on the objects a run changes). */
export const JOB_EVENT_RULES: readonly RbacRule[] = EVENT_RULES;
