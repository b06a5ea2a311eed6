// Reading the records back, for `status` and `revert`: only what verifies with the key that
// vouches for the record's writer counts; everything else — a forged record, a damaged entry,
// one written by an older chaoskit, a record created again from a copy — is named (ConfigMap and
// key) and never acted on (D86, D158).

import { RUN_ANNOTATION } from '../transport/ops.js';
import { ConfigMaps } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import {
  HEADER_KEY,
  MAC_SUFFIX,
  parseJson,
  problemOf,
  type RemovedPods,
  type RunHeader,
  type RunPod,
  removedPods,
  runHeader,
  type TouchedObject,
  touchedObject,
} from './entries.js';
import { LEDGER_LABEL, recordBinding } from './names.js';
import type { LedgerKeys } from './seal.js';
import type { Writer } from './writer.js';

export interface RunRecord {
  runId: string;
  /** The namespace of the record (and of the key that sealed it). */
  namespace: string;
  /** Its ConfigMap. */
  name: string;
  /** Who wrote it: what it is undone as. */
  writer: Writer;
  title?: string;
  started: string;
  expires: string;
  /** The deployment and pod of a run `chaoskit deploy` started (from the sealed header). */
  deployment?: string;
  pod?: RunPod;
  /** Each object entry, with the data key it is kept under. */
  objects: Array<TouchedObject & { key?: string }>;
  pods: Array<RemovedPods & { key: string }>;
}

/** Something in the ledger that is not acted on, and why. */
export interface RecordProblem {
  /** `ConfigMap <namespace>/<name>`, and the key when one entry is at fault. */
  where: string;
  /** The run it claims to be, when its labels or name say. */
  runId?: string;
  problem: string;
}

export interface ConfigMapObject {
  metadata?: { name?: string; namespace?: string; uid?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

/** The run a record's ConfigMap claims to be, by its label or its name (unverified). */
export function claimedRun(configMap: ConfigMapObject): string | undefined {
  const name = configMap.metadata?.name ?? '';
  return (
    configMap.metadata?.labels?.[RUN_ANNOTATION] ||
    (name.startsWith('chaoskit-run-') ? name.slice('chaoskit-run-'.length) : undefined)
  );
}

/** One ConfigMap read as a run's record: what verifies, and what does not. */
export async function parseRecord(
  configMap: ConfigMapObject,
  keys: LedgerKeys,
): Promise<{ run?: RunRecord; problems: RecordProblem[] }> {
  const namespace = configMap.metadata?.namespace ?? '';
  const name = configMap.metadata?.name ?? '';
  const uid = configMap.metadata?.uid ?? '';
  const where = `ConfigMap ${namespace}/${name}`;
  const claimed = claimedRun(configMap);
  const data = configMap.data ?? {};
  const problems: RecordProblem[] = [];
  const refuse = (problem: string, at?: string) =>
    problems.push({
      where: at ? `${where}, key ${at}` : where,
      ...(claimed ? { runId: claimed } : {}),
      problem,
    });
  const text = data[HEADER_KEY];
  if (text === undefined) {
    refuse(
      Object.keys(data).length === 0
        ? 'holds nothing: its run stopped before it recorded a change (and so made none), or it is not a record'
        : 'has no header; nothing in it is acted on',
    );
    return { problems };
  }
  const parsed = parseJson(text);
  const shape = 'problem' in parsed ? parsed.problem : problemOf(runHeader, parsed.value);
  if (shape) {
    const older = !('problem' in parsed) && (parsed.value as { v?: unknown })?.v === 2;
    refuse(
      older
        ? 'was written by an older chaoskit, whose records name no writer: nothing in it is acted on (check it with chaoskit status, undo it by hand, then chaoskit revert <run> --dismiss)'
        : `its header is malformed (${shape}); nothing in it is acted on`,
    );
    return { problems };
  }
  const info = (parsed as { value: RunHeader }).value;
  const vouched = await keys.vouching(namespace, info.key, info.writer);
  if ('problem' in vouched) {
    refuse(`cannot be verified: ${vouched.problem}; nothing in it is acted on`);
    return { problems };
  }
  const { key } = vouched;
  const sealed = (entry: string) =>
    key.verifies(recordBinding(namespace, name, uid, entry), data[entry]!, data[`${entry}${MAC_SUFFIX}`]);
  const headerProblem = !sealed(HEADER_KEY)
    ? `its header is not sealed with the key of ${info.writer.username} for this ConfigMap: forged, edited by hand, or created again from a copy of a record`
    : info.runId !== claimed || info.namespace !== namespace
      ? 'its header names another run or namespace'
      : undefined;
  if (headerProblem) {
    refuse(`${headerProblem}; nothing in it is acted on`);
    return { problems };
  }
  const run: RunRecord = {
    runId: info.runId,
    namespace,
    name,
    writer: info.writer,
    ...(info.title ? { title: info.title } : {}),
    started: info.started,
    expires: info.expires,
    ...(info.deployment ? { deployment: info.deployment } : {}),
    ...(info.pod ? { pod: info.pod } : {}),
    objects: [],
    pods: [],
  };
  for (const entry of Object.keys(data).sort()) {
    if (entry === HEADER_KEY || entry.endsWith(MAC_SUFFIX)) continue;
    const kind = entry.startsWith('o-') ? touchedObject : entry.startsWith('p-') ? removedPods : undefined;
    if (!kind) {
      refuse('is not a key chaoskit writes; skipped', entry);
      continue;
    }
    if (!sealed(entry)) {
      refuse(
        `is not sealed with the key of ${info.writer.username}: forged, edited by hand, or copied from another record; skipped`,
        entry,
      );
      continue;
    }
    const value = parseJson(data[entry]!);
    const problem = 'problem' in value ? value.problem : problemOf(kind, value.value);
    if (problem) {
      refuse(`${problem}; skipped`, entry);
      continue;
    }
    const entryValue = (value as { value: unknown }).value;
    if (kind === touchedObject) run.objects.push({ ...(entryValue as TouchedObject), key: entry });
    else run.pods.push({ ...(entryValue as RemovedPods), key: entry });
  }
  return { run, problems };
}

/** The records in `namespace` (or in every namespace): their ConfigMaps, as they are. */
export function listRecords(kube: Transport, namespace: string | null): Promise<ConfigMapObject[]> {
  return kube.list<ConfigMapObject>(ConfigMaps, { namespace, labelSelector: `${LEDGER_LABEL}=true` });
}

/**
 * Every run's record in `namespace` (or in every namespace), oldest first, each verified with
 * the key that vouches for its writer; and what did not verify.
 */
export async function readRecords(
  kube: Transport,
  namespace: string | null,
  keys: LedgerKeys,
): Promise<{ runs: RunRecord[]; problems: RecordProblem[] }> {
  const runs: RunRecord[] = [];
  const problems: RecordProblem[] = [];
  for (const map of await listRecords(kube, namespace)) {
    const read = await parseRecord(map, keys).catch((err: unknown) => ({
      problems: [
        {
          where: `ConfigMap ${map.metadata?.namespace}/${map.metadata?.name}`,
          problem: `could not be verified: ${(err as Error).message}`,
        },
      ],
      run: undefined,
    }));
    if (read.run) runs.push(read.run);
    problems.push(...read.problems);
  }
  runs.sort((a, b) => a.runId.localeCompare(b.runId));
  return { runs, problems };
}

/**
 * One run's record in `namespace`, verified; `found` false when no ConfigMap claims to be it,
 * `names` those that do.
 */
export async function readRecord(
  kube: Transport,
  namespace: string,
  runId: string,
  keys: LedgerKeys,
): Promise<{ run?: RunRecord; problems: RecordProblem[]; found: boolean; names: string[] }> {
  const maps = (await listRecords(kube, namespace)).filter((map) => claimedRun(map) === runId);
  const names = maps.map((map) => map.metadata?.name ?? '');
  if (maps.length === 0) return { problems: [], found: false, names };
  const read = await Promise.all(maps.map((map) => parseRecord(map, keys)));
  const run = read.find((r) => r.run)?.run;
  return { ...(run ? { run } : {}), problems: read.flatMap((r) => r.problems), found: true, names };
}
