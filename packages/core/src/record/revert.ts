// What `chaoskit status` and `chaoskit revert` do with verified records: tell for each object
// whether the run's change is still in place, and undo exactly that — one object at a time, so
// that one that cannot be undone is reported and the others still are; refusing what the
// record's writer may not do (asked of the server as the writer, whom every undo request acts
// as), objects changed since (unless forced), kinds that carry privilege (unless named), and
// changes the recorded activity could not have made.

import { isApiError } from '../errors/errors.js';
import { changeEvent } from '../telemetry/telemetry.js';
import { describeRight, missingRights, type RbacRule, type Right } from '../transport/access.js';
import { sendWrite } from '../transport/ops.js';
import { ConfigMaps } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import { type Assessment, assess, type ObjectStatus, type OtherRuns, whatOf } from './assess.js';
import { MAC_SUFFIX, type ObjectRef, type TouchedObject } from './entries.js';
import { typeOf } from './names.js';
import { inconsistency, kindName, privilegedKind } from './privilege.js';
import type { RunRecord } from './read.js';
import type { LedgerKeys } from './seal.js';
import type { Writer } from './writer.js';

/**
 * Deletes a run's record (its ConfigMap `name`; only the one of `uid` when given): what a revert
 * does once nothing is left to undo.
 */
export function deleteRecord(
  kube: Transport,
  namespace: string,
  name: string,
  uid?: string,
): Promise<unknown> {
  return sendWrite(kube, {
    verb: 'delete',
    type: ConfigMaps,
    name,
    namespace,
    ...(uid ? { body: { preconditions: { uid } } } : {}),
  });
}

const groupOf = (ref: ObjectRef) => (ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0]! : '');

/** What undoing `entry` asks of the server: to read the object, and the inverse of the run's write. */
export function undoRights(entry: TouchedObject): Right[] {
  const at = {
    group: groupOf(entry.ref),
    resource: entry.ref.plural,
    ...(entry.ref.namespace ? { namespace: entry.ref.namespace } : {}),
  };
  const write = entry.created ? 'delete' : entry.deleted ? 'create' : 'patch';
  return [
    { verb: 'get', ...at, name: entry.ref.name },
    write === 'create' ? { verb: write, ...at } : { verb: write, ...at, name: entry.ref.name },
  ];
}

/**
 * Why `writer` may not undo `entry` (asked of the server through `kube`, which acts as the
 * writer), or undefined when it may: a change its writer could not have made is never undone.
 */
export async function beyondWriter(
  kube: Transport,
  writer: Writer,
  entry: TouchedObject,
): Promise<string | undefined> {
  const missing = await missingRights(kube, undoRights(entry));
  if (missing.length === 0) return undefined;
  const where = entry.ref.namespace ? ` in namespace '${entry.ref.namespace}'` : '';
  return `outside the rights of its writer, ${writer.username}, who may not ${missing.map(describeRight).join(', ')}${where}: a change it could not have made`;
}

export const describeRef = (ref: ObjectRef) =>
  `${ref.noun} '${ref.name}'${ref.namespace ? ` in namespace '${ref.namespace}'` : ''}`;

/**
 * The status of every object a run touched. With `writer` (the road that acts as the record's
 * writer), what its writer may not undo is said to be beyond it; when that cannot be asked (this
 * identity may not act as the writer), the status says so.
 */
export async function runStatus(
  kube: Transport,
  run: Pick<RunRecord, 'runId' | 'objects'>,
  others: OtherRuns,
  keys?: LedgerKeys,
  writer?: { kube: Transport; identity: Writer },
): Promise<ObjectStatus[]> {
  const out: ObjectStatus[] = [];
  for (const o of run.objects) {
    const beyond = writer
      ? await beyondWriter(writer.kube, writer.identity, o).catch(
          (err: unknown) =>
            ({
              unknown: `whether its writer, ${writer.identity.username}, may undo it is not known (${(err as Error).message})`,
            }) as const,
        )
      : undefined;
    if (typeof beyond === 'string') {
      out.push({
        ref: o.ref,
        state: 'beyond its writer',
        what: whatOf(o),
        activities: o.activities,
        detail: beyond,
      });
      continue;
    }
    const status = await assess(kube, run.runId, o, others, keys).then(
      (a) => a.status,
      (err: unknown): ObjectStatus => ({
        ref: o.ref,
        state: 'changed since',
        what: 'unknown',
        activities: o.activities,
        detail: `could not be read: ${(err as Error).message}`,
      }),
    );
    out.push(
      beyond ? { ...status, detail: [status.detail, beyond.unknown].filter(Boolean).join('; ') } : status,
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
  /** The reverted run's Events: ChaosReverted on each object restored (D134). */
  notes?: RevertEvents;
}

/**
 * What a revert tells of each object it restored: the run's Events (events/notes.ts, a layer
 * above the record, gives them).
 */
export interface RevertEvents {
  reverted(
    ref: ObjectRef,
    how: 'deleted' | 'created again' | 'restored',
    sent: unknown,
    activities: readonly string[],
  ): void;
}

export interface RevertResult {
  undone: ObjectStatus[];
  /** Left as they are, with the reason in `detail`: changed since, a privileged kind, an inconsistent record. */
  refused: ObjectStatus[];
  /** The undo was tried and failed; the error in `detail`. */
  failed: ObjectStatus[];
  /** Nothing to do: undone already, gone, or handed over to the run on top. */
  untouched: ObjectStatus[];
  /**
   * What the record says was changed but its writer may not change: no change of the run, never
   * acted on, and not counted as left in place; the record is kept while it holds them.
   */
  beyond: ObjectStatus[];
  /** Whether the record was deleted (nothing of the run is left to undo). */
  cleared: boolean;
}

// Sent as they are: a revert is no change of a run, and the rails guard runs, not their undoing.
// Answered with the object as the undo left it (or the Status of its deletion).
function apply(kube: Transport, ref: ObjectRef, undo: NonNullable<Assessment['undo']>): Promise<unknown> {
  const at = { type: typeOf(ref), namespace: ref.namespace ?? null };
  if ('delete' in undo) {
    const body = undo.delete.uid ? { body: { preconditions: { uid: undo.delete.uid } } } : {};
    return sendWrite(kube, { verb: 'delete', ...at, name: ref.name, ...body });
  }
  if ('create' in undo)
    // As it was: without a mark of this call.
    return sendWrite(kube, { verb: 'create', ...at, body: undo.create, unmarked: true });
  return sendWrite(kube, { verb: 'patch', ...at, name: ref.name, patch: undo.patch, patchType: 'json' });
}

/**
 * Undoes a verified run's recorded changes, object by object (newest first), every request made
 * through `kube`, which acts as the record's writer: first asked whether the writer may, then
 * made as the writer. An object refused or failed is reported and the others are still undone.
 * When nothing of the run is left, its record is deleted; entries handed over to a run on top are
 * taken out of it.
 */
export async function revertRun(
  kube: Transport,
  run: Pick<RunRecord, 'runId' | 'namespace' | 'writer' | 'pods' | 'objects'> & { name?: string },
  others: OtherRuns,
  keys: LedgerKeys | undefined,
  options: RevertOptions,
): Promise<RevertResult> {
  const log = options.log ?? (() => {});
  const allowed = new Set(options.allowKinds ?? []);
  const result: RevertResult = {
    undone: [],
    refused: [],
    failed: [],
    untouched: [],
    beyond: [],
    cleared: false,
  };
  const settled: string[] = [];
  for (const o of [...run.objects].reverse()) {
    let assessment: Assessment;
    try {
      const beyond = await beyondWriter(kube, run.writer, o);
      if (beyond) {
        const what = whatOf(o);
        result.beyond.push({
          ref: o.ref,
          state: 'beyond its writer',
          what,
          activities: o.activities,
          detail: beyond,
        });
        log(`not acted on: ${describeRef(o.ref)} (${what}): ${beyond}`);
        continue;
      }
      assessment = await assess(kube, run.runId, o, others, keys);
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
      const sent = await apply(kube, o.ref, undo!);
      const how = 'delete' in undo! ? 'deleted' : 'create' in undo! ? 'created again' : 'restored';
      options.notes?.reverted(o.ref, how, sent, o.activities);
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
  if (options.settleRecord === false || !run.name) return result;
  if (left + result.beyond.length === 0) {
    await deleteRecord(kube, run.namespace, run.name).catch((err) => {
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
    await sendWrite(kube, {
      verb: 'patch',
      type: ConfigMaps,
      name: run.name,
      patch: { data },
      patchType: 'merge',
      ...record,
    });
  }
  return result;
}
