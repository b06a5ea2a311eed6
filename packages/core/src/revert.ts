// What `chaoskit status` and `chaoskit revert` do with the runs' records: find them, tell for
// each object whether the run's change is still in place, and undo exactly the recorded fields —
// refusing an object someone else changed since (unless forced).

import { isApiError } from './errors.js';
import type { KubeClient } from './kube.js';
import {
  EXPIRES_ANNOTATION,
  LEDGER_LABEL,
  type ObjectRef,
  type RemovedPods,
  RUN_ANNOTATION,
  recordName,
  TITLE_ANNOTATION,
  type TouchedObject,
  typeOf,
} from './ledger.js';
import { annotationPointer, sameField, valueAt } from './pointers.js';
import { ConfigMaps } from './resources.js';

export interface RunRecord {
  runId: string;
  namespace: string;
  title?: string;
  started?: string;
  expires?: string;
  objects: TouchedObject[];
  pods: RemovedPods[];
}

export type ObjectState =
  /** The run's change is in place: revert undoes it. */
  | 'in place'
  /** Undone already (a rollback, a revert, or by hand: the fields are as they were). */
  | 'undone'
  /** Someone changed the fields since: revert refuses unless forced. */
  | 'changed since'
  /** The object is gone (and the run did not delete it): nothing to undo. */
  | 'gone';

export interface ObjectStatus {
  ref: ObjectRef;
  state: ObjectState;
  /** What the run did to it, in words ("patched /spec/unschedulable", "created", "deleted"). */
  what: string;
  activities: string[];
}

type Obj = Record<string, unknown> & {
  metadata?: Record<string, unknown> & { annotations?: Record<string, string> };
};

interface Loaded {
  configMap: Obj & { data?: Record<string, string> };
}

const describeRef = (ref: ObjectRef) =>
  `${ref.noun} '${ref.name}'${ref.namespace ? ` in namespace '${ref.namespace}'` : ''}`;

export { describeRef };

function parse(configMap: Loaded['configMap']): RunRecord {
  const annotations = configMap.metadata?.annotations ?? {};
  const labels = (configMap.metadata?.labels ?? {}) as Record<string, string>;
  const objects: TouchedObject[] = [];
  const pods: RemovedPods[] = [];
  for (const [key, value] of Object.entries(configMap.data ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const parsed = JSON.parse(value) as unknown;
    if (key.startsWith('o-')) objects.push(parsed as TouchedObject);
    else if (key.startsWith('p-')) pods.push(parsed as RemovedPods);
  }
  return {
    runId: labels[RUN_ANNOTATION] ?? String(configMap.metadata?.name ?? '').replace(/^chaoskit-run-/, ''),
    namespace: String(configMap.metadata?.namespace ?? ''),
    ...(annotations[TITLE_ANNOTATION] ? { title: annotations[TITLE_ANNOTATION] } : {}),
    ...(annotations['chaoskit.io/started'] ? { started: annotations['chaoskit.io/started'] } : {}),
    ...(annotations[EXPIRES_ANNOTATION] ? { expires: annotations[EXPIRES_ANNOTATION] } : {}),
    objects,
    pods,
  };
}

/** Every run's record in `namespace` (or in every namespace), oldest first. */
export async function findRuns(kube: KubeClient, namespace: string | null): Promise<RunRecord[]> {
  const maps = await kube.list<Loaded['configMap']>(ConfigMaps, {
    namespace,
    labelSelector: `${LEDGER_LABEL}=true`,
  });
  return maps.map(parse).sort((a, b) => a.runId.localeCompare(b.runId));
}

/** One run's record. */
export async function findRun(
  kube: KubeClient,
  namespace: string,
  runId: string,
): Promise<RunRecord | undefined> {
  try {
    return parse(await kube.get<Loaded['configMap']>(ConfigMaps, recordName(runId), namespace));
  } catch (err) {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
}

const equal = sameField;

async function read(kube: KubeClient, ref: ObjectRef): Promise<Obj | undefined> {
  try {
    return await kube.get<Obj>(typeOf(ref), ref.name, ref.namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
}

function whatOf(o: TouchedObject): string {
  if (o.created) return 'created';
  if (o.deleted) return 'deleted';
  return `changed ${Object.keys(o.original).join(', ')}`;
}

/** Whether the run's change to one object is in place, undone, or changed since. */
export async function objectStatus(kube: KubeClient, runId: string, o: TouchedObject): Promise<ObjectStatus> {
  const current = await read(kube, o.ref);
  const base = { ref: o.ref, what: whatOf(o), activities: o.activities };
  if (o.created) {
    const ours = current?.metadata?.annotations?.[RUN_ANNOTATION] === runId;
    return { ...base, state: !current ? 'undone' : ours ? 'in place' : 'changed since' };
  }
  if (o.deleted) return { ...base, state: current ? 'undone' : 'in place' };
  if (!current) return { ...base, state: 'gone' };
  const pointers = Object.keys(o.original);
  const now = (p: string) => valueAt(current, p);
  if (pointers.every((p) => equal(now(p), o.original[p]!))) return { ...base, state: 'undone' };
  if (pointers.every((p) => equal(now(p), o.written[p] ?? o.original[p]!) || equal(now(p), o.original[p]!)))
    return { ...base, state: 'in place' };
  return { ...base, state: 'changed since' };
}

/** The status of every object a run touched. */
export function runStatus(kube: KubeClient, run: RunRecord): Promise<ObjectStatus[]> {
  return Promise.all(run.objects.map((o) => objectStatus(kube, run.runId, o)));
}

export interface RevertResult {
  undone: ObjectStatus[];
  /** Changed by someone else since: left as they are (use force). */
  refused: ObjectStatus[];
  /** Nothing to do: undone already, or gone. */
  untouched: ObjectStatus[];
}

const strip = (object: Obj): Obj => {
  const { metadata = {}, status: _status, ...rest } = object;
  const {
    uid: _u,
    resourceVersion: _r,
    creationTimestamp: _c,
    managedFields: _m,
    generation: _g,
    selfLink: _s,
    ...meta
  } = metadata as Record<string, unknown>;
  return { ...rest, metadata: meta };
};

/**
 * Undoes a run's recorded changes: restores exactly the recorded fields (a JSON Patch that
 * first tests the object's resourceVersion, so a change made meanwhile is not overwritten),
 * deletes what the run created, creates again what it deleted. An object changed by someone
 * else since is refused unless `force`. When nothing of the run is left in place, its record
 * is deleted. Deleted pods are not reverted: their controllers replace them.
 */
export async function revertRun(
  kube: KubeClient,
  run: RunRecord,
  options: { force?: boolean; log?: (line: string) => void } = {},
): Promise<RevertResult> {
  const log = options.log ?? (() => {});
  const result: RevertResult = { undone: [], refused: [], untouched: [] };
  for (const o of [...run.objects].reverse()) {
    const status = await objectStatus(kube, run.runId, o);
    if (status.state === 'undone' || status.state === 'gone') {
      result.untouched.push(status);
      continue;
    }
    if (status.state === 'changed since' && !options.force) {
      result.refused.push(status);
      log(
        `refused: ${describeRef(o.ref)} was changed by someone else since the run (${status.what}); --force to overwrite`,
      );
      continue;
    }
    const type = typeOf(o.ref);
    if (o.created) {
      await kube.delete(type, o.ref.name, { namespace: o.ref.namespace ?? null });
      log(`deleted ${describeRef(o.ref)}, which the run created`);
    } else if (o.deleted) {
      await kube.create(type, strip(o.deleted), { namespace: o.ref.namespace ?? null });
      log(`created ${describeRef(o.ref)} again, which the run deleted`);
    } else {
      const current = (await read(kube, o.ref))!;
      const ops: Array<Record<string, unknown>> = [
        { op: 'test', path: '/metadata/resourceVersion', value: current.metadata?.resourceVersion },
      ];
      // Deepest first, so that removing an inner field never follows its parent's removal.
      for (const pointer of Object.keys(o.original).sort((a, b) => b.length - a.length)) {
        const was = o.original[pointer]!;
        const now = valueAt(current, pointer);
        if (equal(now, was)) continue;
        if (!was.present) ops.push({ op: 'remove', path: pointer });
        else ops.push({ op: now.present ? 'replace' : 'add', path: pointer, value: was.value });
      }
      if (current.metadata?.annotations?.[RUN_ANNOTATION] !== undefined) {
        ops.push({ op: 'remove', path: annotationPointer(RUN_ANNOTATION) });
      }
      await kube.patch(type, o.ref.name, ops, 'json', { namespace: o.ref.namespace ?? null });
      log(`restored ${describeRef(o.ref)} (${status.what})`);
    }
    result.undone.push(status);
  }
  for (const pods of run.pods) {
    log(
      `not reverted: pods ${pods.how} in namespace '${pods.namespace}' (${pods.names.join(', ')}); their controllers replace them`,
    );
  }
  if (result.refused.length === 0) {
    await kube.delete(ConfigMaps, recordName(run.runId), { namespace: run.namespace }).catch((err) => {
      if (!isApiError(err, 'NotFound')) throw err;
    });
  }
  return result;
}
