// The ConfigMap of a run's record: which run it is of, its name, its sealed header, and its
// creation (empty: the uid the seals bind is the server's to give). The ledger (ledger.ts)
// writes into it.

import { isApiError } from '../errors/errors.js';
import { RUN_ANNOTATION, sendWrite } from '../transport/ops.js';
import { ConfigMaps } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import type { RunHeader, RunPod } from './entries.js';
import { EXPIRES_ANNOTATION, LEDGER_LABEL, recordName, TITLE_ANNOTATION } from './names.js';
import type { LedgerKey } from './seal.js';
import type { Writer } from './writer.js';

export interface RunInfo {
  runId: string;
  /** Where the run's record (and the ledger key) is kept. */
  namespace: string;
  /** After how long the run's changes count as expired (`chaoskit revert --expired`). */
  ttlSeconds: number;
  title?: string;
  started: string;
  /** The deployment the run belongs to, and the pod it runs in (`run --revert-leftovers-of`). */
  deployment?: string;
  pod?: RunPod;
  /** The record's ConfigMap (default `chaoskit-run-<run id>`; a deployed run's, its deployment's). */
  record?: string;
}

export const recordNameOf = (run: RunInfo) => run.record ?? recordName(run.runId);

/** Creates the record's ConfigMap; its uid. A deployment's that is there already is refused. */
export async function createRecord(transport: Transport, run: RunInfo): Promise<string> {
  try {
    const created = await sendWrite<{ metadata?: { uid?: string } }>(transport, {
      verb: 'create',
      type: ConfigMaps,
      body: recordBody(run),
      namespace: run.namespace,
    });
    return created.metadata!.uid!;
  } catch (err) {
    if (isApiError(err, 'Conflict'))
      throw new Error(
        `ConfigMap ${recordNameOf(run)} exists already: the record of an earlier run that was not undone, or something else under its name (chaoskit status names it; chaoskit revert undoes or --dismiss removes a record)`,
        { cause: err },
      );
    throw err;
  }
}

/** When the run's changes count as expired. */
export function expiresOf(run: RunInfo): string {
  return new Date(Date.parse(run.started) + run.ttlSeconds * 1000).toISOString();
}

/** The record's sealed header: the run, its writer (what the record is undone as) and its key. */
export function recordHeader(run: RunInfo, writer: Writer, key: LedgerKey): RunHeader {
  return {
    v: 3,
    runId: run.runId,
    namespace: run.namespace,
    started: run.started,
    expires: expiresOf(run),
    ...(run.title ? { title: run.title.slice(0, 200) } : {}),
    ...(run.deployment ? { deployment: run.deployment } : {}),
    ...(run.pod ? { pod: run.pod } : {}),
    writer,
    key: key.secret,
  };
}

/** The record's ConfigMap as it is created: empty, labelled and annotated for people and kubectl. */
export function recordBody(run: RunInfo) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: recordNameOf(run),
      namespace: run.namespace,
      labels: { [LEDGER_LABEL]: 'true', [RUN_ANNOTATION]: run.runId },
      // For people and `kubectl`; chaoskit reads these from the sealed header.
      annotations: {
        [EXPIRES_ANNOTATION]: expiresOf(run),
        'chaoskit.io/started': run.started,
        ...(run.title ? { [TITLE_ANNOTATION]: run.title.slice(0, 200) } : {}),
      },
    },
  };
}

/** A run id: sortable by time, unique enough, a valid Kubernetes name part. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(16).slice(2, 8)}`.toLowerCase();
}
