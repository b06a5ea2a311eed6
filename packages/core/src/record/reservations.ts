// The pods other runs on the same cluster have removed and still hold (their records are there):
// what the pod share rail adds to a run's own selection, so that twenty runs of 25 % each cannot
// remove a namespace's pods together (D88). The check and the run's own record of its pods are
// made under a lock per namespace (a ConfigMap in the ledger namespace), one run at a time: a
// run never misses the pods of a run that checked before it.

import { isApiError } from '../errors/errors.js';
import { sendWrite } from '../transport/ops.js';
import { ConfigMaps } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import { sleep, throwIfAborted } from '../waiting/waiting.js';
import { parseJson, problemOf, type RemovedPods, removedPods } from './entries.js';
import { claimedRun, listRecords } from './read.js';

export interface Reserved {
  /** Pod names of the namespace other runs removed (each once). */
  names: Set<string>;
  /** The runs that removed them. */
  runs: string[];
}

export async function reservedByOthers(
  kube: Transport,
  ledgerNamespace: string,
  runId: string,
  namespace: string,
): Promise<Reserved> {
  const names = new Set<string>();
  const runs = new Set<string>();
  for (const map of await listRecords(kube, ledgerNamespace)) {
    // Read without their seals: other runs' records are sealed with keys this run may not read
    // (each runner's own, D158). A record anyone wrote can only make the rail stricter.
    const run = claimedRun(map);
    if (!run || run === runId) continue;
    for (const [entry, text] of Object.entries(map.data ?? {})) {
      if (!entry.startsWith('p-') || entry.endsWith('.mac')) continue;
      const parsed = parseJson(text);
      if ('problem' in parsed || problemOf(removedPods, parsed.value)) continue;
      const batch = parsed.value as RemovedPods;
      if (batch.namespace !== namespace) continue;
      for (const name of batch.names) names.add(name);
      runs.add(run);
    }
  }
  return { names, runs: [...runs].sort() };
}

/** The share lock of `namespace`: a ConfigMap of the ledger namespace, one run holding it at a time. */
export const shareLockName = (namespace: string) => `chaoskit-share-lock-${namespace}`.slice(0, 253);

/** A lock left by a run killed while it held it is taken over after this long unchanged. */
const STALE_MS = 15_000;

/**
 * Runs `fn` holding the share lock of `namespace` (a ConfigMap in the ledger namespace, created
 * to take it and deleted to give it back). A lock that stays the same object for STALE_MS of this
 * process's own clock was left by a killed run, and is taken over.
 */
export async function withShareLock<T>(
  kube: Transport,
  ledgerNamespace: string,
  namespace: string,
  runId: string,
  fn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const name = shareLockName(namespace);
  const where = { namespace: ledgerNamespace };
  let seen: { uid: string; since: number } | undefined;
  let pause = 20;
  for (;;) {
    throwIfAborted(signal);
    try {
      await sendWrite(kube, {
        verb: 'create',
        type: ConfigMaps,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: ledgerNamespace },
          data: { run: runId },
        },
        ...where,
      });
      break;
    } catch (err) {
      if (!isApiError(err, 'Conflict')) throw err;
    }
    const held = await kube
      .get<{ metadata?: { uid?: string } }>(ConfigMaps, name, ledgerNamespace)
      .catch((err: unknown) => (isApiError(err, 'NotFound') ? undefined : Promise.reject(err)));
    const uid = held?.metadata?.uid;
    if (uid && seen?.uid === uid && Date.now() - seen.since > STALE_MS) {
      await sendWrite(kube, {
        verb: 'delete',
        type: ConfigMaps,
        name,
        ...where,
        body: { preconditions: { uid } },
      }).catch((err: unknown) => {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      });
      continue;
    }
    if (uid && seen?.uid !== uid) seen = { uid, since: Date.now() };
    await sleep(pause * (0.5 + Math.random()), signal);
    pause = Math.min(pause * 2, 200);
  }
  try {
    return await fn();
  } finally {
    await sendWrite(kube, { verb: 'delete', type: ConfigMaps, name, ...where }).catch(() => undefined);
  }
}
