// What `chaoskit status` and `chaoskit revert` share: how records are read and verified (D86,
// D158), what is left in place, the kinds a run's mark may be on, the installed activities' rules.

import type { RbacRule, ResourceType } from '@chaoskit/core';
import {
  describeRef,
  type Identity,
  identityOf,
  LedgerKeys,
  type Marked,
  type ObjectStatus,
  type RecordProblem,
  type TouchedObject,
  type Transport,
  type Writer,
} from '@chaoskit/core/runner';
import { installedActivities } from '../activities/resolve-activity.js';
import { terminalText } from '../output/terminal.js';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const problemLine = (p: RecordProblem) =>
  `${terminalText(`  not verified: ${p.where}${p.runId ? ` (run ${p.runId})` : ''}: ${p.problem}`)}\n`;

/** Who this identity is, and the keys it verifies records with (reading each once). */
export function reader(kube: Transport): { self: Promise<Identity | undefined>; keys: LedgerKeys } {
  const self = identityOf(kube).catch(() => undefined);
  return { self, keys: new LedgerKeys(kube, self) };
}

/** What is left in place of a run's objects (what is beyond its writer is no change of the run). */
export const inPlace = (objects: readonly ObjectStatus[]) =>
  objects.filter((o) => o.state === 'in place' || o.state === 'changed since');

const WRITES = new Set(['create', 'patch', 'update']);

/**
 * The kinds chaoskit's installed activities create or change (so may carry a run's mark), as
 * the cluster serves them: where `status` and `revert` look for changes whose record is gone.
 */
export async function markableTypes(kube: Transport): Promise<ResourceType[]> {
  const { activities } = await installedActivities();
  const byGroup = new Map<string, Set<string>>();
  for (const rule of activities.flatMap((a) => a.rbac)) {
    if (!rule.verbs.some((v) => WRITES.has(v))) continue;
    for (const group of rule.apiGroups) {
      if (group === '*') continue;
      for (const plural of rule.resources) {
        if (plural === '*' || plural.includes('/') || plural === 'pods') continue;
        byGroup.set(group, (byGroup.get(group) ?? new Set()).add(plural));
      }
    }
  }
  const types: ResourceType[] = [];
  for (const [group, plurals] of byGroup) {
    const served = await servedResources(kube, group).catch(() => undefined);
    for (const r of served?.resources ?? []) {
      if (!plurals.has(r.name)) continue;
      types.push({
        apiVersion: served!.groupVersion,
        plural: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        noun: r.kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
      });
    }
  }
  return types;
}

/** What the cluster serves of an API group, at its preferred version. */
async function servedResources(kube: Transport, group: string) {
  type List = { groupVersion: string; resources: Array<{ name: string; kind: string; namespaced: boolean }> };
  if (group === '')
    return { ...(await kube.request<List>({ method: 'GET', path: '/api/v1' })), groupVersion: 'v1' };
  const info = await kube.request<{ preferredVersion?: { groupVersion: string } }>({
    method: 'GET',
    path: `/apis/${group}`,
  });
  const gv = info.preferredVersion?.groupVersion;
  return gv
    ? { ...(await kube.request<List>({ method: 'GET', path: `/apis/${gv}` })), groupVersion: gv }
    : undefined;
}

/** The RBAC rules of every installed activity, by qualified name (aliases too). */
export async function installedRules(): Promise<(activity: string) => readonly RbacRule[] | undefined> {
  const { activities, aliases } = await installedActivities();
  const rules = new Map<string, readonly RbacRule[]>();
  for (const a of activities) rules.set(a.qualifiedName, a.rbac);
  for (const a of aliases) rules.set(a.qualifiedName, a.activity.rbac);
  return (activity) => rules.get(activity);
}

/**
 * Changes found only by marks, grouped into runs (their entries rebuilt from the sealed undo)
 * and by writer: marks that name another writer than the run's first are not the same run's.
 */
export function marksByRun(
  marked: readonly Marked[],
): Array<{ runId: string; writer: Writer; objects: TouchedObject[] }> {
  const runs = new Map<string, { runId: string; writer: Writer; objects: TouchedObject[] }>();
  for (const m of marked) {
    if (!m.entry || !m.writer) continue;
    const key = `${m.run}\u0000${m.writer.username}`;
    const run = runs.get(key) ?? { runId: m.run, writer: m.writer, objects: [] };
    run.objects.push(m.entry);
    runs.set(key, run);
  }
  return [...runs.values()];
}

export const markProblems = (marked: readonly Marked[]): RecordProblem[] =>
  marked
    .filter((m) => m.problem)
    .map((m) => ({
      where: describeRef(m.ref),
      runId: m.run,
      problem: `carries the run's mark, but ${m.problem}`,
    }));

/** `chaoskit status`: returns the exit code (0; the listing itself is not a failure). */
