// What `chaoskit status` and `chaoskit revert` do with verified records: tell for each object
// whether the run's change is still in place, and undo exactly that — one object at a time, so
// that one that cannot be undone is reported and the others still are; refusing objects changed
// since (unless forced), kinds that carry privilege (unless named), and changes the recorded
// activity could not have made.

import type { RbacRule } from '../auth/access.js';
import { sendWrite } from '../cluster/ops.js';
import { ConfigMaps } from '../cluster/resources.js';
import type { Transport } from '../cluster/transport.js';
import { isApiError } from '../errors/errors.js';
import { changeEvent } from '../telemetry/telemetry.js';
import { type Assessment, assess, type ObjectStatus, type OtherRuns } from './assess.js';
import { MAC_SUFFIX, type ObjectRef } from './entries.js';
import { recordName, typeOf } from './names.js';
import { inconsistency, kindName, privilegedKind } from './privilege.js';
import type { RunRecord } from './read.js';
import type { LedgerKey } from './seal.js';

/** Deletes a run's record (its ConfigMap): what a revert does once nothing is left to undo. */
export function deleteRecord(kube: Transport, namespace: string, runId: string): Promise<unknown> {
  return sendWrite(kube, { verb: 'delete', type: ConfigMaps, name: recordName(runId), namespace });
}

export const describeRef = (ref: ObjectRef) =>
  `${ref.noun} '${ref.name}'${ref.namespace ? ` in namespace '${ref.namespace}'` : ''}`;

/** The status of every object a run touched. */
export async function runStatus(
  kube: Transport,
  run: Pick<RunRecord, 'runId' | 'objects'>,
  others: OtherRuns,
  key?: LedgerKey,
): Promise<ObjectStatus[]> {
  const out: ObjectStatus[] = [];
  for (const o of run.objects) {
    out.push(
      await assess(kube, run.runId, o, others, key).then(
        (a) => a.status,
        (err: unknown) => ({
          ref: o.ref,
          state: 'changed since' as const,
          what: 'unknown',
          activities: o.activities,
          detail: `could not be read: ${(err as Error).message}`,
        }),
      ),
    );
  }
  return out;
}

export interface RevertOptions {
  /** Also overwrite objects someone changed since the run. */
  force?: boolean;
  /** Kinds that carry privilege which the revert may change (`--allow-kind`, `plural.group`). */
  allowKinds?: readonly string[];
  /** The RBAC rules an installed activity declares; a record is checked against them. */
  rulesOf: (activity: string) => readonly RbacRule[] | undefined;
  log?: (line: string) => void;
  /**
   * The run's record verified and is to be settled (deleted when nothing is left). False for
   * changes found only by their marks: a record that did not verify is never touched.
   */
  settleRecord?: boolean;
}

export interface RevertResult {
  undone: ObjectStatus[];
  /** Left as they are, with the reason in `detail`: changed since, a privileged kind, an inconsistent record. */
  refused: ObjectStatus[];
  /** The undo was tried and failed; the error in `detail`. */
  failed: ObjectStatus[];
  /** Nothing to do: undone already, gone, or handed over to the run on top. */
  untouched: ObjectStatus[];
  /** Whether the record was deleted (nothing of the run is left to undo). */
  cleared: boolean;
}

// Sent as they are: a revert is no change of a run, and the rails guard runs, not their undoing.
async function apply(kube: Transport, ref: ObjectRef, undo: NonNullable<Assessment['undo']>) {
  const at = { type: typeOf(ref), namespace: ref.namespace ?? null };
  if ('delete' in undo) {
    const body = undo.delete.uid ? { body: { preconditions: { uid: undo.delete.uid } } } : {};
    await sendWrite(kube, { verb: 'delete', ...at, name: ref.name, ...body });
  } else if ('create' in undo) {
    // As it was: without a mark of this call.
    await sendWrite(kube, { verb: 'create', ...at, body: undo.create, unmarked: true });
  } else {
    await sendWrite(kube, { verb: 'patch', ...at, name: ref.name, patch: undo.patch, patchType: 'json' });
  }
}

/**
 * Undoes a verified run's recorded changes, object by object (newest first). An object refused
 * or failed is reported and the others are still undone. When nothing of the run is left, its
 * record is deleted; entries handed over to a run on top are taken out of it.
 */
export async function revertRun(
  kube: Transport,
  run: Pick<RunRecord, 'runId' | 'namespace' | 'pods' | 'objects'>,
  others: OtherRuns,
  key: LedgerKey | undefined,
  options: RevertOptions,
): Promise<RevertResult> {
  const log = options.log ?? (() => {});
  const allowed = new Set(options.allowKinds ?? []);
  const result: RevertResult = { undone: [], refused: [], failed: [], untouched: [], cleared: false };
  const settled: string[] = [];
  for (const o of [...run.objects].reverse()) {
    let assessment: Assessment;
    try {
      assessment = await assess(kube, run.runId, o, others, key);
    } catch (err) {
      result.failed.push({
        ref: o.ref,
        state: 'changed since',
        what: 'unknown',
        activities: o.activities,
        detail: (err as Error).message,
      });
      log(`failed: ${describeRef(o.ref)} could not be read: ${(err as Error).message}`);
      continue;
    }
    const { status, undo } = assessment;
    if (status.state === 'undone' || status.state === 'gone' || status.state === 'handed over') {
      result.untouched.push(status);
      if (status.state === 'handed over') log(`handed over: ${describeRef(o.ref)}: ${status.detail}`);
      if (o.key) settled.push(o.key);
      continue;
    }
    const refuse = (detail: string) => {
      result.refused.push({ ...status, detail });
      log(`refused: ${describeRef(o.ref)} (${status.what}): ${detail}`);
    };
    const wrong = inconsistency(o, options.rulesOf);
    if (wrong) {
      refuse(`${wrong}; nothing done`);
      continue;
    }
    const privileged = privilegedKind(o.ref);
    if (privileged && !allowed.has(privileged)) {
      refuse(`${kindName(o.ref)} carry privilege: revert changes them only with --allow-kind ${privileged}`);
      continue;
    }
    if (status.state === 'changed since' && !options.force) {
      refuse(`${status.detail ?? 'changed by someone else since the run'}; --force to overwrite`);
      continue;
    }
    try {
      await apply(kube, o.ref, undo!);
      changeEvent(
        { verb: 'revert', resource: o.ref.plural, name: o.ref.name, namespace: o.ref.namespace },
        true,
      );
      result.undone.push(status);
      if (o.key) settled.push(o.key);
      log(
        'delete' in undo!
          ? `deleted ${describeRef(o.ref)}, which the run created`
          : 'create' in undo!
            ? `created ${describeRef(o.ref)} again, which the run deleted`
            : `restored ${describeRef(o.ref)} (${status.what}) to ${undo!.to}`,
      );
    } catch (err) {
      const reason =
        isApiError(err, 'Conflict') || isApiError(err, 'Invalid')
          ? `${(err as Error).message} (it changed while being restored; run revert again)`
          : (err as Error).message;
      result.failed.push({ ...status, detail: reason });
      log(`failed: ${describeRef(o.ref)}: ${reason}`);
    }
  }
  for (const pods of run.pods) {
    log(
      `not reverted: pods ${pods.how} in namespace '${pods.namespace}' (${pods.names.join(', ')}); their controllers replace them`,
    );
  }
  const left = result.refused.length + result.failed.length;
  const record = { namespace: run.namespace };
  if (options.settleRecord === false) return result;
  if (left === 0) {
    await deleteRecord(kube, run.namespace, run.runId).catch((err) => {
      if (!isApiError(err, 'NotFound')) throw err;
    });
    result.cleared = true;
  } else if (settled.length) {
    // What is done leaves the record, so that a run chained to it undoes both, and a later
    // revert tries only what is left.
    const data = Object.fromEntries(
      settled.flatMap((k) => [
        [k, null],
        [`${k}${MAC_SUFFIX}`, null],
      ]),
    );
    const name = recordName(run.runId);
    await sendWrite(kube, {
      verb: 'patch',
      type: ConfigMaps,
      name,
      patch: { data },
      patchType: 'merge',
      ...record,
    });
  }
  return result;
}
