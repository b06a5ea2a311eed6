// `chaoskit revert`: undoing what the runs' records say is still in place. Only records sealed
// with the key that vouches for their writer are acted on, and only as that writer (D86, D158);
// everything else is named with the reason. Changes are checked against what the writer may do
// and what the recorded activity can do, kinds that carry privilege need --allow-kind, and
// `revert --expired` on a terminal asks first.

import { createInterface } from 'node:readline/promises';
import {
  actingAs,
  deleteRecord,
  describeRef,
  findMarked,
  type LedgerKeys,
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
  type Transport,
  uncovered,
} from '@chaoskit/core/runner';
import { missingNamespace } from '../cluster/namespace-hint.js';
import { terminalText } from '../output/terminal.js';
import {
  type Io,
  inPlace,
  installedRules,
  markableTypes,
  markProblems,
  marksByRun,
  problemLine,
  reader,
} from './common.js';

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
