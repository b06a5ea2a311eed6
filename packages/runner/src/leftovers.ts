// `chaoskit run --revert-leftovers-of <deployment>` (what `chaoskit deploy` passes): before the
// run starts, what an earlier run of the same deployment left in place — its pod was killed
// before its rollbacks could play — is undone from that run's record. Only that deployment's
// runs, by their sealed headers, and only those whose pod is gone or has ended: a run whose pod
// still lives (playing its rollbacks after a SIGTERM) is its own to settle (D121).

import { isApiError, Pods } from '@chaoskit/core';
import {
  describeRef,
  LedgerKeys,
  otherRunsOf,
  RunNotes,
  type RunPod,
  type RunRecord,
  readRecords,
  redact,
  revertRun,
  type Transport,
} from '@chaoskit/core/runner';
import { EXIT } from './exit-codes.js';
import { installedRules } from './record-commands.js';

/** The pod this process runs in, as `chaoskit deploy` hands it down (the downward API). */
export function ownPod(env: NodeJS.ProcessEnv = process.env): RunPod | undefined {
  const { CHAOSKIT_POD_NAMESPACE: namespace, CHAOSKIT_POD_NAME: name, CHAOSKIT_POD_UID: uid } = env;
  return namespace && name && uid ? { namespace, name, uid } : undefined;
}

/** Why the run's pod still counts as alive, or undefined when it is gone or has ended. */
async function alive(kube: Transport, pod: RunPod): Promise<string | undefined> {
  type Pod = { metadata?: { uid?: string }; status?: { phase?: string } };
  const found = await kube.get<Pod>(Pods, pod.name, pod.namespace).catch((err: unknown) => {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  });
  if (!found || found.metadata?.uid !== pod.uid) return undefined;
  const phase = found.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed'
    ? undefined
    : `its pod ${pod.name} is ${phase ?? 'there'}`;
}

export interface Leftovers {
  /** Runs whose changes were all undone (their records removed). */
  reverted: string[];
  /** What is still in place: objects refused or failed, runs not touched, with the reason. */
  left: string[];
}

/** Undoes what ended runs of `deployment` left, per their records in `namespace`. */
export async function revertLeftovers(
  kube: Transport,
  deployment: string,
  namespace: string,
  ownRunId: string | undefined,
  say: (line: string) => void,
): Promise<Leftovers> {
  const keys = new LedgerKeys(kube);
  const key = await keys.of(namespace);
  const { runs } = await readRecords(kube, namespace, keys);
  const theirs = runs.filter((r) => r.deployment === deployment && r.runId !== ownRunId);
  const out: Leftovers = { reverted: [], left: [] };
  if (theirs.length === 0) return out;
  const rulesOf = await installedRules();
  const leave = (run: RunRecord, why: string) => {
    out.left.push(`run ${run.runId}: ${why}`);
    say(`leftovers of run ${run.runId} (deployment ${deployment}) not reverted: ${why}`);
  };
  for (const run of theirs) {
    if (!run.pod) {
      leave(run, 'it names no pod, so whether it still runs is unknown (chaoskit revert it)');
      continue;
    }
    const living = await alive(kube, run.pod);
    if (living) {
      leave(run, `it may still be settling its own changes: ${living}`);
      continue;
    }
    const current = await readRecords(kube, namespace, keys);
    const notes = new RunNotes({
      runId: run.runId,
      warn: (line) => say(`leftovers of run ${run.runId}: ${line}`),
    });
    const result = await revertRun(kube, run, otherRunsOf(current.runs), key, {
      rulesOf,
      log: (line) => say(`leftovers of run ${run.runId}: ${redact(line)}`),
      settleRecord: current.runs.some((r) => r.runId === run.runId),
      notes: notes.for(kube),
    });
    await notes.settled();
    for (const o of [...result.refused, ...result.failed])
      out.left.push(`run ${run.runId}: ${describeRef(o.ref)}: ${o.detail ?? o.state}`);
    if (result.cleared) out.reverted.push(run.runId);
    say(
      `leftovers of run ${run.runId} (deployment ${deployment}, pod ${run.pod.name} gone): ${result.undone.length} undone, ${result.untouched.length} already as they were, ${result.refused.length + result.failed.length} left`,
    );
  }
  return out;
}

/**
 * `run --revert-leftovers-of`: undoes the leftovers, and returns the exit code when the run must
 * not start — something is still in place (5), which the run would be written over.
 */
export async function leftoversFirst(
  kube: Transport,
  deployment: string,
  namespace: string,
  ownRunId: string | undefined,
  log: { info(line: string): void; error(line: string): void },
): Promise<number | undefined> {
  const { left } = await revertLeftovers(kube, deployment, namespace, ownRunId, (line) => log.info(line));
  if (!left.length) return undefined;
  log.error(
    `not starting: earlier runs of ${deployment} left changes in place that were not undone (chaoskit status, chaoskit revert <run>):\n  ${left.join('\n  ')}`,
  );
  return EXIT.leftInPlace;
}
