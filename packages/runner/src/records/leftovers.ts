// `chaoskit run --revert-leftovers-of <deployment>` (what `chaoskit deploy` passes): before the
// run starts, what an earlier run of the same deployment left in place — its pod was killed
// before its rollbacks could play — is undone from that run's record. A deployment's runs keep
// their record in one ConfigMap (`chaoskit-record-<deployment>`, the one its runner may change),
// one run at a time: what is there is the predecessor's, verified with the runner's own key and
// undone as the runner itself; a run whose pod still lives (playing its rollbacks after a
// SIGTERM) is its own to settle (D121, D158).

import { ConfigMaps, isApiError, Pods } from '@chaoskit/core';
import type { ConfigMapObject } from '@chaoskit/core/runner';
import {
  deploymentRecordName,
  describeRef,
  identityOf,
  LedgerKeys,
  otherRunsOf,
  parseRecord,
  RunNotes,
  type RunPod,
  readRecords,
  redact,
  revertRun,
  type Transport,
} from '@chaoskit/core/runner';
import { Refusal } from '../output/errors.js';
import { EXIT } from '../run/exit-codes.js';
import { installedRules } from './common.js';

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

/**
 * Undoes what the ended run of `deployment` left, per its record in `namespace`. Something in
 * the record's place that is not a record of this runner is refused: the run could not record.
 */
export async function revertLeftovers(
  kube: Transport,
  deployment: string,
  namespace: string,
  say: (line: string) => void,
): Promise<Leftovers> {
  const out: Leftovers = { reverted: [], left: [] };
  const name = deploymentRecordName(deployment);
  let map: ConfigMapObject;
  try {
    map = await kube.get<ConfigMapObject>(ConfigMaps, name, namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) return out;
    throw err;
  }
  const self = await identityOf(kube);
  const keys = new LedgerKeys(kube, Promise.resolve(self));
  const { run, problems } = await parseRecord(map, keys);
  const where = `ConfigMap ${name} in namespace '${namespace}'`;
  if (!run)
    throw new Refusal(
      `the run does not start: ${where}, where its record goes, holds no record of this deployment that verifies (${problems.map((p) => p.problem).join('; ')}): chaoskit status names it; remove it once checked`,
    );
  if (run.writer.username !== self?.username)
    throw new Refusal(
      `the run does not start: ${where}, where its record goes, holds a record written by ${run.writer.username}, not by this runner: chaoskit revert ${run.runId} as them, or --dismiss it`,
    );
  const leave = (why: string) => {
    out.left.push(`run ${run.runId}: ${why}`);
    say(`leftovers of run ${run.runId} (deployment ${deployment}) not reverted: ${why}`);
  };
  if (!run.pod) {
    leave('it names no pod, so whether it still runs is unknown (chaoskit revert it)');
    return out;
  }
  const living = await alive(kube, run.pod);
  if (living) {
    leave(`it may still be settling its own changes: ${living}`);
    return out;
  }
  const current = await readRecords(kube, namespace, keys);
  const notes = new RunNotes({
    runId: run.runId,
    warn: (line) => say(`leftovers of run ${run.runId}: ${line}`),
  });
  const result = await revertRun(kube, run, otherRunsOf(current.runs), keys, {
    rulesOf: await installedRules(),
    log: (line) => say(`leftovers of run ${run.runId}: ${redact(line)}`),
    notes: notes.for(kube),
  });
  await notes.settled();
  for (const o of [...result.refused, ...result.failed, ...result.beyond])
    out.left.push(`run ${run.runId}: ${describeRef(o.ref)}: ${o.detail ?? o.state}`);
  if (result.cleared) out.reverted.push(run.runId);
  say(
    `leftovers of run ${run.runId} (deployment ${deployment}, pod ${run.pod.name} gone): ${result.undone.length} undone, ${result.untouched.length} already as they were, ${result.refused.length + result.failed.length + result.beyond.length} left`,
  );
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
  log: { info(line: string): void; error(line: string): void },
): Promise<number | undefined> {
  const { left } = await revertLeftovers(kube, deployment, namespace, (line) => log.info(line));
  if (!left.length) return undefined;
  log.error(
    `not starting: earlier runs of ${deployment} left changes in place that were not undone (chaoskit status, chaoskit revert <run>):\n  ${left.join('\n  ')}`,
  );
  return EXIT.leftInPlace;
}
