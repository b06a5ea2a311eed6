// `chaoskit status` and `chaoskit revert`: what the runs' records say is still in place, and
// undoing it. Only records sealed with the key that vouches for their writer are acted on, and
// only as that writer (D86, D158); everything else is named with the reason. Changes are checked
// against what the writer may do and what the recorded activity can do, kinds that carry
// privilege need --allow-kind, and `revert --expired` on a terminal asks first.

import { createInterface } from 'node:readline/promises';
import type { RbacRule, ResourceType } from '@chaoskit/core';
import {
  actingAs,
  deleteRecord,
  describeRef,
  findMarked,
  type Identity,
  identityOf,
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
  type Writer,
} from '@chaoskit/core/runner';
import { missingNamespace } from './commands/namespace-hint.js';
import { type Format, formatted } from './commands/output.js';
import { installedActivities } from './resolve-activity.js';
import { terminalText } from './terminal.js';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const problemLine = (p: RecordProblem) =>
  `${terminalText(`  not verified: ${p.where}${p.runId ? ` (run ${p.runId})` : ''}: ${p.problem}`)}\n`;

/** Who this identity is, and the keys it verifies records with (reading each once). */
function reader(kube: Transport): { self: Promise<Identity | undefined>; keys: LedgerKeys } {
  const self = identityOf(kube).catch(() => undefined);
  return { self, keys: new LedgerKeys(kube, self) };
}

/** What is left in place of a run's objects (what is beyond its writer is no change of the run). */
const inPlace = (objects: readonly ObjectStatus[]) =>
  objects.filter((o) => o.state === 'in place' || o.state === 'changed since');

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
  /** -o json|yaml; else lines for people. */
  format?: Format | undefined;
}

type Listed = Pick<RunRecord, 'runId' | 'title' | 'started' | 'expires' | 'pods'> & {
  /** Who wrote the record: what it is undone as. */
  writer: string;
  expired: boolean;
  /** The record is gone or damaged: found by the marks on the objects. */
  byMarks?: boolean;
  objects: ObjectStatus[];
  left: number;
};

/**
 * Changes found only by marks, grouped into runs (their entries rebuilt from the sealed undo)
 * and by writer: marks that name another writer than the run's first are not the same run's.
 */
function marksByRun(
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
  const { self, keys } = reader(kube);
  const { runs, problems } = await readRecords(kube, options.namespace, keys);
  // Whether the namespace holds any record at all: what the marks find is another matter.
  const recordsRead = runs.length > 0 || problems.length > 0;
  const orphans = uncovered(
    await findMarked(kube, await markableTypes(kube), keys, options.ledgerNamespace),
    runs,
  );
  problems.push(...markProblems(orphans));
  const byMarks = marksByRun(orphans);
  const others = otherRunsOf(runs);
  const now = Date.now();
  const me = await self;
  const report: Listed[] = [];
  const statusOf = (run: Pick<RunRecord, 'runId' | 'objects' | 'writer'>) =>
    runStatus(kube, run, others, keys, { kube: actingAs(kube, me, run.writer), identity: run.writer });
  const list = async (
    run: Pick<RunRecord, 'runId' | 'objects' | 'writer'>,
    listed: Omit<Listed, 'objects' | 'left' | 'writer'>,
  ) => {
    const objects = await statusOf(run);
    report.push({ ...listed, writer: run.writer.username, objects, left: inPlace(objects).length });
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
    const recorded = report.find((r) => r.runId === run.runId && r.writer === run.writer.username);
    const objects = await statusOf(run);
    if (recorded) {
      recorded.objects.push(
        ...objects.map((o) => ({ ...o, detail: `found by its mark${o.detail ? `; ${o.detail}` : ''}` })),
      );
      recorded.left += inPlace(objects).length;
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
  // No record read in a namespace that is not there: a typo, most often (D163). What the marks
  // found (another run's objects, anywhere) is still shown, after the line.
  const missing =
    !recordsRead && options.namespace !== null ? await missingNamespace(kube, options.namespace) : undefined;
  if (missing) io.err(`chaoskit: ${missing}\n`);
  if (missing && report.length === 0 && problems.length === 0) return 1;
  if (options.format) {
    io.out(formatted({ runs: report, not_verified: problems }, options.format));
    return missing ? 1 : 0;
  }
  if (report.length === 0 && problems.length === 0) io.out('no run has recorded changes in place\n');
  const line = (text: string) => io.out(`${terminalText(text)}\n`);
  for (const run of report) {
    line(
      run.byMarks
        ? `${run.runId}  by ${run.writer}  (its record is gone: found by the marks on the objects)  ${run.left} change(s) in place`
        : `${run.runId}  ${run.title ?? ''}  by ${run.writer}  started ${run.started}${run.expired ? '  EXPIRED' : `  expires ${run.expires}`}  ${run.left} change(s) in place`,
    );
    for (const o of run.objects)
      line(
        `  ${o.state.padEnd(13)} ${describeRef(o.ref)}: ${o.what} (${o.activities.join(', ')})${o.detail ? `: ${o.detail}` : ''}`,
      );
    for (const p of run.pods)
      line(
        `  not revertable ${p.names.length} pod(s) ${p.how} in namespace '${p.namespace}' by ${p.activity}`,
      );
  }
  if (problems.length) {
    io.out(
      `\n${problems.length} record(s), entries or marks not verified, not acted on (chaoskit revert <run> --dismiss removes a record once checked):\n`,
    );
    for (const p of problems) io.out(problemLine(p));
  }
  return missing ? 1 : 0;
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
  `${runId}: ${r.undone.length} undone, ${r.untouched.length} already as they were, ${r.refused.length} refused, ${r.failed.length} failed${r.beyond.length ? `, ${r.beyond.length} beyond its writer (not acted on)` : ''}${r.cleared ? '; record removed' : '; record kept for what is left'}\n`;

/** A run to revert: its verified record, or its changes found by their marks alone. */
type ToRevert = Pick<RunRecord, 'runId' | 'namespace' | 'writer' | 'pods' | 'objects'> & { name?: string };

/**
 * `chaoskit revert`: returns the exit code (0 when nothing is left; 1 when something is). A run
 * is undone as its writer (D158). `--expired` acts on the expired runs whose records verify:
 * what does not verify is named (and told through `notice`, the reaper's Event), and does not
 * count as left, so that one planted record does not fail every sweep.
 */
export async function revert(
  kube: Transport,
  runId: string | undefined,
  options: RevertCommandOptions,
  io: Io,
  notice?: (message: string) => Promise<void>,
): Promise<number> {
  const { self, keys } = reader(kube);
  if (options.dismiss) return dismiss(kube, runId!, options, io, keys);
  const { runs: all, problems } = await readRecords(kube, options.namespace, keys);
  let runs: ToRevert[];
  if (runId) {
    const recorded = all.find((r) => r.runId === runId);
    const theirs = problems.filter((p) => p.runId === runId);
    const marked = uncovered(
      await findMarked(kube, await markableTypes(kube), keys, options.namespace),
      all,
    ).filter((m) => m.run === runId);
    theirs.push(...markProblems(marked));
    // Marks of another writer than the record's are not this run's changes.
    const byMarks = marksByRun(marked).filter(
      (m) => !recorded || m.writer.username === recorded.writer.username,
    );
    const found = byMarks.flatMap((m) => m.objects);
    for (const p of theirs) io.err(problemLine(p));
    if (!recorded && found.length === 0) {
      if (theirs.length) {
        io.err(
          `chaoskit: run ${runId}'s record does not verify: nothing was done (--dismiss removes it once checked)\n`,
        );
        return 1;
      }
      throw new Error(
        (await missingNamespace(kube, options.namespace)) ??
          `no record of run ${runId} in namespace ${options.namespace} (chaoskit status lists them)`,
      );
    }
    if (found.length) io.err(`run ${runId}: ${found.length} change(s) found by the marks on the objects\n`);
    runs = recorded
      ? [{ ...recorded, objects: [...recorded.objects, ...found] }]
      : byMarks.map((m) => ({ ...m, namespace: options.namespace, pods: [] }));
  } else {
    runs = all.filter((r) => Date.parse(r.expires) < Date.now());
    for (const p of problems) io.err(problemLine(p));
    if (runs.length === 0) {
      const missing =
        all.length === 0 && problems.length === 0
          ? await missingNamespace(kube, options.namespace)
          : undefined;
      if (missing) {
        io.err(`chaoskit: ${missing}\n`);
        return 1;
      }
      io.out(`no expired run in namespace ${options.namespace}\n`);
      await tell(problems, [], notice);
      return 0;
    }
    const others = otherRunsOf(all);
    const lines: string[] = [];
    // Read as each run's writer, as its undo will be made.
    const me = await self;
    for (const run of runs)
      for (const o of inPlace(await runStatus(actingAs(kube, me, run.writer), run, others, keys)))
        lines.push(terminalText(`  ${run.runId}: ${describeRef(o.ref)}: ${o.what} (${o.state})`));
    io.err(
      `revert --expired would undo, in ${runs.length} expired run(s):\n${lines.join('\n') || '  (nothing in place)'}\n`,
    );
    if (!(await confirmed(`undo the changes of ${runs.length} expired run(s)`, options, io))) return 1;
  }
  const rulesOf = await installedRules();
  const me = await self;
  let left = 0;
  const beyond: string[] = [];
  // Newest first: a run written over another is undone before it.
  for (const run of [...runs].reverse()) {
    const current = await readRecords(kube, options.namespace, keys);
    // Every request of the undo acts as the run's writer: the server judges each as theirs.
    const writer = actingAs(kube, me, run.writer);
    // ChaosReverted on each object restored (D134); a missing right is said once.
    const notes = new RunNotes({ runId: run.runId, warn: (line) => io.err(`chaoskit: ${line}\n`) });
    const result = await revertRun(writer, run, otherRunsOf(current.runs), keys, {
      force: options.force === true,
      allowKinds: options.allowKind,
      rulesOf,
      log: (line) => io.err(`${terminalText(`${run.runId}: ${redact(line)}`)}\n`),
      settleRecord: current.runs.some((r) => r.runId === run.runId),
      notes: notes.for(writer),
    });
    await notes.settled();
    left += result.refused.length + result.failed.length;
    beyond.push(...result.beyond.map((o) => `run ${run.runId}: ${describeRef(o.ref)}: ${o.detail}`));
    io.out(summary(run.runId, result));
  }
  if (!runId) await tell(problems, beyond, notice);
  return left || (runId && problems.some((p) => p.runId === runId)) ? 1 : 0;
}

/** What a sweep left alone, as one notice (the reaper's Warning Event on its Job). */
async function tell(
  problems: readonly RecordProblem[],
  beyond: readonly string[],
  notice: ((message: string) => Promise<void>) | undefined,
): Promise<void> {
  if (!notice || problems.length + beyond.length === 0) return;
  const items = [...problems.map((p) => `${p.where}: ${p.problem}`), ...beyond];
  await notice(
    `${items.length} record(s), entries or marks not acted on (not verified, or beyond their writer's rights): ${items.slice(0, 5).join('; ')}${items.length > 5 ? `; and ${items.length - 5} more (chaoskit status lists them)` : ''}`,
  );
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
    const left = inPlace(await runStatus(kube, found.run, otherRunsOf(runs), keys));
    io.err(
      `${terminalText(
        left.length
          ? `dismissing run ${runId}'s record leaves in place, for good:\n${left.map((o) => `  ${describeRef(o.ref)}: ${o.what} (${o.state})`).join('\n')}`
          : `run ${runId}'s record leaves nothing in place`,
      )}\n`,
    );
  }
  for (const p of found.problems) io.err(problemLine(p));
  if (!(await confirmed(`remove the record of run ${runId} without undoing anything`, options, io))) return 1;
  for (const name of found.names) await deleteRecord(kube, options.namespace, name);
  io.out(`${runId}: record removed; nothing was undone\n`);
  return 0;
}
