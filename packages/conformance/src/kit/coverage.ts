import type { AnyActivity } from '@chaoskit/core';
import { CHAOSKIT_PACKAGES, installedActivities } from '@chaoskit/runner';
import type { ConformanceCase } from '../case.js';

/** Registered activities that no case covers, and cases whose activity is not registered. */
export function coverageGaps(activities: readonly AnyActivity[], cases: readonly ConformanceCase[]) {
  const covered = new Set(cases.map((c) => c.activity.qualifiedName));
  const registered = new Set(activities.map((a) => a.qualifiedName));
  return {
    uncovered: [...registered].filter((name) => !covered.has(name)).sort(),
    unknown: [...covered].filter((name) => !registered.has(name)).sort(),
  };
}

/** chaoskit's own installed activities: the kit's cases cover those, not an extension's. */
export async function chaoskitActivities(): Promise<AnyActivity[]> {
  const { packages } = await installedActivities();
  return packages.filter((p) => p.name in CHAOSKIT_PACKAGES).flatMap((p) => p.activities);
}
