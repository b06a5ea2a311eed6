// `chaoskit status` and `chaoskit revert`: what the runs' records say is still in place, and
// undoing it. Only records sealed with the ledger key are acted on (D86); everything else is
// named with the reason. Changes are checked against what the recorded activity can do, kinds
// that carry privilege need --allow-kind, and `revert --expired` on a terminal asks first.

import { createInterface } from 'node:readline/promises';
import type { RbacRule, ResourceType } from '@chaoskit/core';
import {
  deleteRecord,
  describeRef,
  findMarked,
  LedgerKeys,
  type Marked,
  type ObjectStatus,
  otherRunsOf,
  type RecordProblem,
  type RevertResult,
  RunNotes,
  type RunRecord,
  readRecord,
  readRecords,
  redact,
  revertRun,
  runStatus,
  type TouchedObject,
  type Transport,
  uncovered,
} from '@chaoskit/core/runner';
import { installedActivities } from './resolve-activity.js';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const problemLine = (p: RecordProblem) =>
  `  not verified: ${p.where}${p.runId ? ` (run ${p.runId})` : ''}: ${p.problem}\n`;

const WRITES = new Set(['create', 'patch', 'update']);

/**
 * The kinds chaoskit's installed activities create or change (so may carry a run's mark), as
 * the cluster serves them: where `status` and `revert` look for changes whose record is gone.
 */
async function markableTypes(kube: Transport): Promise<ResourceType[]> {
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

export interface StatusOptions {
  /** Where records are looked for (null: every namespace). */
  namespace: string | null;
  /** The ledger namespace whose key verifies marks found on objects. */
  ledgerNamespace: string;
  json?: boolean;
}

type Listed = Pick<RunRecord, 'runId' | 'title' | 'started' | 'expires' | 'pods'> & {
  expired: boolean;
  /** The record is gone or damaged: found by the marks on the objects. */
  byMarks?: boolean;
  objects: ObjectStatus[];
  left: number;
};

/** Changes found only by marks, grouped into runs (their entries rebuilt from the sealed undo). */
function marksByRun(marked: readonly Marked[]): Array<{ runId: string; objects: TouchedObject[] }> {
  const runs = new Map<string, TouchedObject[]>();
  for (const m of marked) if (m.entry) runs.set(m.run, [...(runs.get(m.run) ?? []), m.entry]);
  return [...runs].map(([runId, objects]) => ({ runId, objects }));
}

const markProblems = (marked: readonly Marked[]): RecordProblem[] =>
  marked
    .filter((m) => m.problem)
    .map((m) => ({
      where: describeRef(m.ref),
      runId: m.run,
      problem: `carries the run's mark, but ${m.problem}`,
    }));

/** `chaoskit status`: returns the exit code (0; the listing itself is not a failure). */
export async function status(kube: Transport, options: StatusOptions, io: Io): Promise<number> {
  const keys = new LedgerKeys(kube);
  const { runs, problems } = await readRecords(kube, options.namespace, keys);
  const key = await keys.of(options.ledgerNamespace);
  const orphans = uncovered(await findMarked(kube, await markableTypes(kube), key), runs);
  problems.push(...markProblems(orphans));
  const byMarks = marksByRun(orphans);
  const others = otherRunsOf(runs);
  const now = Date.now();
  const report: Listed[] = [];
  const list = async (
    run: Pick<RunRecord, 'runId' | 'objects'>,
    listed: Omit<Listed, 'objects' | 'left'>,
  ) => {
    const objects = await runStatus(kube, run, others, key);
    const left = objects.filter((o) => o.state === 'in place' || o.state === 'changed since').length;
    report.push({ ...listed, objects, left });
  };
  for (const run of runs)
    await list(run, {
      runId: run.runId,
      ...(run.title ? { title: run.title } : {}),
      started: run.started,
      expires: run.expires,
      pods: run.pods,
      expired: Date.parse(run.expires) < now,
    });
  for (const run of byMarks) {
    const recorded = report.find((r) => r.runId === run.runId);
    const objects = await runStatus(kube, run, others, key);
    if (recorded) {
      recorded.objects.push(
        ...objects.map((o) => ({ ...o, detail: `found by its mark${o.detail ? `; ${o.detail}` : ''}` })),
      );
      recorded.left += objects.filter((o) => o.state === 'in place' || o.state === 'changed since').length;
    } else
      await list(run, {
        runId: run.runId,
        started: '?',
        expires: '?',
        pods: [],
        expired: false,
        byMarks: true,
      });
  }
  if (options.json) {
    io.out(`${JSON.stringify({ runs: report, not_verified: problems }, null, 2)}\n`);
    return 0;
  }
  if (report.length === 0 && problems.length === 0) io.out('no run has recorded changes in place\n');
  for (const run of report) {
    io.out(
      run.byMarks
        ? `${run.runId}  (its record is gone: found by the marks on the objects)  ${run.left} change(s) in place\n`
        : `${run.runId}  ${run.title ?? ''}  started ${run.started}${run.expired ? '  EXPIRED' : `  expires ${run.expires}`}  ${run.left} change(s) in place\n`,
    );
    for (const o of run.objects)
      io.out(
        `  ${o.state.padEnd(13)} ${describeRef(o.ref)}: ${o.what} (${o.activities.join(', ')})${o.detail ? `: ${o.detail}` : ''}\n`,
      );
    for (const p of run.pods)
      io.out(
        `  not revertable ${p.names.length} pod(s) ${p.how} in namespace '${p.namespace}' by ${p.activity}\n`,
      );
  }
  if (problems.length) {
    io.out(
      `\n${problems.length} record(s), entries or marks not verified, not acted on (chaoskit revert <run> --dismiss removes a record once checked):\n`,
    );
    for (const p of problems) io.out(problemLine(p));
  }
  return 0;
}

export interface RevertCommandOptions {
  namespace: string;
  expired?: boolean;
  force?: boolean;
  allowKind: string[];
  dismiss?: boolean;
  yes?: boolean;
}

async function ask(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

/** Whether to go ahead: --yes, or asked on a terminal; elsewhere, without --yes, refused. */
async function confirmed(what: string, options: RevertCommandOptions, io: Io): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    io.err(`chaoskit: ${what}: not on a terminal, so nothing was done; add --yes to go ahead\n`);
    return false;
  }
  return ask(`${what}. Go ahead?`);
}

const summary = (runId: string, r: RevertResult) =>
  `${runId}: ${r.undone.length} undone, ${r.untouched.length} already as they were, ${r.refused.length} refused, ${r.failed.length} failed${r.cleared ? '; record removed' : '; record kept for what is left'}\n`;

/** `chaoskit revert`: returns the exit code (0 when nothing is left; 1 when something is). */
export async function revert(
  kube: Transport,
  runId: string | undefined,
  options: RevertCommandOptions,
  io: Io,
): Promise<number> {
  const keys = new LedgerKeys(kube);
  const key = await keys.of(options.namespace);
  if (options.dismiss) return dismiss(kube, runId!, options, io, keys);
  const { runs: all, problems } = await readRecords(kube, options.namespace, keys);
  let runs: RunRecord[];
  if (runId) {
    const recorded = all.find((r) => r.runId === runId);
    const theirs = problems.filter((p) => p.runId === runId);
    const marked = uncovered(await findMarked(kube, await markableTypes(kube), key), all).filter(
      (m) => m.run === runId,
    );
    theirs.push(...markProblems(marked));
    const found = marksByRun(marked)[0]?.objects ?? [];
    for (const p of theirs) io.err(problemLine(p));
    if (!recorded && found.length === 0) {
      if (theirs.length) {
        io.err(
          `chaoskit: run ${runId}'s record does not verify: nothing was done (--dismiss removes it once checked)\n`,
        );
        return 1;
      }
      throw new Error(
        `no record of run ${runId} in namespace ${options.namespace} (chaoskit status lists them)`,
      );
    }
    if (found.length) io.err(`run ${runId}: ${found.length} change(s) found by the marks on the objects\n`);
    runs = [
      recorded
        ? { ...recorded, objects: [...recorded.objects, ...found] }
        : { runId, namespace: options.namespace, started: '?', expires: '?', objects: found, pods: [] },
    ];
  } else {
    runs = all.filter((r) => Date.parse(r.expires) < Date.now());
    for (const p of problems) io.err(problemLine(p));
    if (runs.length === 0) {
      io.out(`no expired run in namespace ${options.namespace}\n`);
      return problems.length ? 1 : 0;
    }
    const others = otherRunsOf(all);
    const lines: string[] = [];
    for (const run of runs)
      for (const o of await runStatus(kube, run, others, key))
        if (o.state === 'in place' || o.state === 'changed since')
          lines.push(`  ${run.runId}: ${describeRef(o.ref)}: ${o.what} (${o.state})`);
    io.err(
      `revert --expired would undo, in ${runs.length} expired run(s):\n${lines.join('\n') || '  (nothing in place)'}\n`,
    );
    if (!(await confirmed(`undo the changes of ${runs.length} expired run(s)`, options, io))) return 1;
  }
  const rulesOf = await installedRules();
  let left = 0;
  // Newest first: a run written over another is undone before it.
  for (const run of [...runs].reverse()) {
    const current = await readRecords(kube, options.namespace, keys);
    // ChaosReverted on each object restored (D134); a missing right is said once.
    const notes = new RunNotes({ runId: run.runId, warn: (line) => io.err(`chaoskit: ${line}\n`) });
    const result = await revertRun(kube, run, otherRunsOf(current.runs), key, {
      force: options.force === true,
      allowKinds: options.allowKind,
      rulesOf,
      log: (line) => io.err(`${run.runId}: ${redact(line)}\n`),
      settleRecord: current.runs.some((r) => r.runId === run.runId),
      notes: notes.for(kube),
    });
    await notes.settled();
    left += result.refused.length + result.failed.length;
    io.out(summary(run.runId, result));
  }
  return left || problems.some((p) => !runId || p.runId === runId) ? 1 : 0;
}

/** `revert <run> --dismiss`: shows what the record leaves, then removes the record only. */
async function dismiss(
  kube: Transport,
  runId: string,
  options: RevertCommandOptions,
  io: Io,
  keys: LedgerKeys,
) {
  const found = await readRecord(kube, options.namespace, runId, keys);
  if (!found.found) throw new Error(`no record of run ${runId} in namespace ${options.namespace}`);
  if (found.run) {
    const { runs } = await readRecords(kube, options.namespace, keys);
    const objects = await runStatus(kube, found.run, otherRunsOf(runs), await keys.of(options.namespace));
    const left = objects.filter((o) => o.state === 'in place' || o.state === 'changed since');
    io.err(
      left.length
        ? `dismissing run ${runId}'s record leaves in place, for good:\n${left.map((o) => `  ${describeRef(o.ref)}: ${o.what} (${o.state})`).join('\n')}\n`
        : `run ${runId}'s record leaves nothing in place\n`,
    );
  }
  for (const p of found.problems) io.err(problemLine(p));
  if (!(await confirmed(`remove the record of run ${runId} without undoing anything`, options, io))) return 1;
  await deleteRecord(kube, options.namespace, runId);
  io.out(`${runId}: record removed; nothing was undone\n`);
  return 0;
}
