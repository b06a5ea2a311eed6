import type { AnyActivity } from '@chaoskit/core';
import type { CaseContext } from './case-context.js';

export interface Scenario<A extends AnyActivity = AnyActivity> {
  name: string;
  run: (t: CaseContext<A>) => Promise<void>;
  /** Milliseconds; default 60 s. */
  timeoutMs?: number;
  /** Runs on containers that really run (`runningPods(t)`); skipped with the reason elsewhere. */
  running?: boolean;
}

export interface ConformanceCase<A extends AnyActivity = AnyActivity> {
  activity: A;
  /** What the case needs of the cluster: its own nodes (node operations), the mesh CRDs. */
  needs?: { nodes?: boolean; mesh?: boolean };
  scenarios: Scenario<A>[];
}

/**
 * One case per activity: scenarios that call the activity as an experiment would and assert on
 * the cluster. The same objects run under vitest (chaoskit's own tests) and in the conformance
 * kit against any cluster, so they assert with node:assert, not a test framework. `t.call`
 * returns the activity's own result type.
 */
export function defineCase<A extends AnyActivity>(c: ConformanceCase<A>): ConformanceCase {
  if (c.scenarios.length === 0) throw new TypeError(`case ${c.activity.qualifiedName} has no scenario`);
  return c as unknown as ConformanceCase;
}
