// `chaoskit status`: what the runs' records say is still in place, each run checked as `revert`
// would act on it: records that do not verify, and changes beyond their writer, are named with
// the reason (D86, D158).

import {
  actingAs,
  describeRef,
  findMarked,
  type ObjectStatus,
  otherRunsOf,
  type RunRecord,
  readRecords,
  runStatus,
  type Transport,
  uncovered,
} from '@chaoskit/core/runner';
import { missingNamespace } from '../cluster/namespace-hint.js';
import { type Format, formatted } from '../output/formats.js';
import { terminalText } from '../output/terminal.js';
import { type Io, inPlace, markableTypes, markProblems, marksByRun, problemLine, reader } from './common.js';

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
