import type { AnyActivity } from '@chaoskit/core';
import type { CaseContext } from './case-context.js';

export interface Scenario {
  name: string;
  run: (t: CaseContext) => Promise<void>;
  /** Milliseconds; default 60 s. */
  timeoutMs?: number;
}

export interface ConformanceCase {
  activity: AnyActivity;
  /** What the case needs of the cluster: its own nodes (node operations), the mesh CRDs. */
  needs?: { nodes?: boolean; mesh?: boolean };
  scenarios: Scenario[];
}

/**
 * One case per activity: scenarios that call the activity as an experiment would and assert on
 * the cluster. The same objects run under vitest (chaoskit's own tests) and in the conformance
 * kit against any cluster, so they assert with node:assert, not a test framework.
 */
export function defineCase(c: ConformanceCase): ConformanceCase {
  if (c.scenarios.length === 0) throw new TypeError(`case ${c.activity.qualifiedName} has no scenario`);
  return c;
}
