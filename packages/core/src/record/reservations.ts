// The pods other runs on the same cluster have removed and still hold (their records are there):
// what the pod share rail adds to a run's own selection, so that twenty runs of 25 % each cannot
// remove a namespace's pods together (D91). A run writes its own batch before it reads the
// others', so of two runs that start together at least one sees the other.

import type { KubeClient } from '../kube.js';
import { ConfigMaps } from '../resources.js';
import { LEDGER_LABEL } from './names.js';
import { parseRecord } from './read.js';
import type { LedgerKey } from './seal.js';

export interface Reserved {
  /** Pod names of the namespace other runs removed (each once). */
  names: Set<string>;
  /** The runs that removed them. */
  runs: string[];
}

export async function reservedByOthers(
  kube: KubeClient,
  key: LedgerKey,
  runId: string,
  namespace: string,
): Promise<Reserved> {
  const maps = await kube.list<Parameters<typeof parseRecord>[0]>(ConfigMaps, {
    namespace: key.namespace,
    labelSelector: `${LEDGER_LABEL}=true`,
  });
  const names = new Set<string>();
  const runs = new Set<string>();
  for (const map of maps) {
    // Records that do not verify are not chaoskit's, and reserve nothing.
    const { run } = parseRecord(map, key);
    if (!run || run.runId === runId) continue;
    for (const batch of run.pods) {
      if (batch.namespace !== namespace) continue;
      for (const name of batch.names) names.add(name);
      runs.add(run.runId);
    }
  }
  return { names, runs: [...runs].sort() };
}
