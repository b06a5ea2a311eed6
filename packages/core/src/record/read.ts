// Reading the records back, for `status` and `revert`: only what verifies with the ledger key of
// the record's namespace counts; everything else — a forged record, a damaged entry, one written
// by an older chaoskit — is named (ConfigMap and key) and never acted on (D86).

import { ConfigMaps } from '../cluster/resources.js';
import type { Transport } from '../cluster/transport.js';
import { isApiError } from '../errors/errors.js';
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
import { LEDGER_LABEL, recordBinding, recordName } from './names.js';
import { type LedgerKey, ledgerKey } from './seal.js';

export interface RunRecord {
  runId: string;
  /** The namespace of the record (and of the key that sealed it). */
  namespace: string;
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
  /** The run it claims to be, when the name says. */
  runId?: string;
  problem: string;
}

interface ConfigMapObject {
  metadata?: { name?: string; namespace?: string };
  data?: Record<string, string>;
}

/** The ledger keys of namespaces, each read once. */
export class LedgerKeys {
  readonly #keys = new Map<string, Promise<LedgerKey | undefined>>();
  constructor(readonly kube: Transport) {}
  of(namespace: string): Promise<LedgerKey | undefined> {
    let key = this.#keys.get(namespace);
    if (!key) {
      key = ledgerKey(this.kube, namespace, { create: false });
      this.#keys.set(namespace, key);
    }
    return key;
  }
}

/** One ConfigMap read as a run's record: what verifies, and what does not. */
export function parseRecord(
  configMap: ConfigMapObject,
  key: LedgerKey | undefined,
): { run?: RunRecord; problems: RecordProblem[] } {
  const namespace = configMap.metadata?.namespace ?? '';
  const name = configMap.metadata?.name ?? '';
  const where = `ConfigMap ${namespace}/${name}`;
  const claimed = name.startsWith('chaoskit-run-') ? name.slice('chaoskit-run-'.length) : undefined;
  const data = configMap.data ?? {};
  const problems: RecordProblem[] = [];
  const refuse = (problem: string, at?: string) =>
    problems.push({
      where: at ? `${where}, key ${at}` : where,
      ...(claimed ? { runId: claimed } : {}),
      problem,
    });
  if (!key) {
    refuse(
      `cannot be verified: there is no ledger key (Secret chaoskit-ledger-key) in namespace '${namespace}' that this identity can read`,
    );
    return { problems };
  }
  if (!claimed) {
    refuse('is labelled as a run record but is not named chaoskit-run-<run id>');
    return { problems };
  }
  const sealed = (entry: string): { value: unknown } | { problem: string } => {
    const text = data[entry];
    if (text === undefined) return { problem: 'is missing' };
    if (!key.verifies(recordBinding(namespace, claimed, entry), text, data[`${entry}${MAC_SUFFIX}`]))
      return {
        problem: 'is not sealed with the ledger key: forged, edited by hand, or written by an older chaoskit',
      };
    return parseJson(text);
  };
  const header = sealed(HEADER_KEY);
  const headerProblem =
    'problem' in header
      ? `its header ${header.problem}`
      : (problemOf(runHeader, header.value) ??
        ((header.value as RunHeader).runId !== claimed || (header.value as RunHeader).namespace !== namespace
          ? 'its header names another run or namespace'
          : undefined));
  if (headerProblem) {
    refuse(`${headerProblem}; nothing in it is acted on`);
    return { problems };
  }
  const info = (header as { value: RunHeader }).value;
  const run: RunRecord = {
    runId: info.runId,
    namespace,
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
    const value = sealed(entry);
    const problem = 'problem' in value ? value.problem : problemOf(kind, value.value);
    if (problem) {
      refuse(`${problem}; skipped`, entry);
      continue;
    }
    const parsed = (value as { value: unknown }).value;
    if (kind === touchedObject) run.objects.push({ ...(parsed as TouchedObject), key: entry });
    else run.pods.push({ ...(parsed as RemovedPods), key: entry });
  }
  return { run, problems };
}

/**
 * Every run's record in `namespace` (or in every namespace), oldest first, each verified with
 * the ledger key of its own namespace; and what did not verify.
 */
export async function readRecords(
  kube: Transport,
  namespace: string | null,
  keys = new LedgerKeys(kube),
): Promise<{ runs: RunRecord[]; problems: RecordProblem[] }> {
  const maps = await kube.list<ConfigMapObject>(ConfigMaps, {
    namespace,
    labelSelector: `${LEDGER_LABEL}=true`,
  });
  const runs: RunRecord[] = [];
  const problems: RecordProblem[] = [];
  for (const map of maps) {
    const key = await keys.of(map.metadata?.namespace ?? '').catch((err: unknown) => {
      problems.push({
        where: `Secret chaoskit-ledger-key in namespace '${map.metadata?.namespace}'`,
        problem: (err as Error).message,
      });
      return undefined;
    });
    const read = parseRecord(map, key);
    if (read.run) runs.push(read.run);
    problems.push(...read.problems);
  }
  runs.sort((a, b) => a.runId.localeCompare(b.runId));
  return { runs, problems };
}

/** One run's record, verified; undefined when there is none. */
export async function readRecord(
  kube: Transport,
  namespace: string,
  runId: string,
  keys = new LedgerKeys(kube),
): Promise<{ run?: RunRecord; problems: RecordProblem[]; found: boolean }> {
  let map: ConfigMapObject;
  try {
    map = await kube.get<ConfigMapObject>(ConfigMaps, recordName(runId), namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) return { problems: [], found: false };
    throw err;
  }
  return { ...parseRecord(map, await keys.of(namespace)), found: true };
}
