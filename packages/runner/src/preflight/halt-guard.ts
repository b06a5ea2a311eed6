// The halt levers as a guard of a run (D128, D159): the cluster's and its ledger namespace's,
// read in every cluster the run changes before it starts (a run refuses while halted), then
// watched there until its rollbacks start.

import { KubeClient } from '@chaoskit/core';
import { CLUSTER_HALT_NAMESPACE, describeHalt, HALT_NAME, readHalt, watchHalt } from '../guards/halt.js';
import { Refusal } from '../output/errors.js';
import type { Prepared } from '../prepare/prepare.js';
import type { RunGuard } from '../run/state.js';
import { changedClusters, type PreflightOptions } from './preflight.js';

/**
 * Refuses the run (a Refusal giving the reason and who halted) when the lever is set in a
 * cluster it changes; otherwise the guard that watches it there (none when the run changes no
 * cluster). A run that keeps its record must be able to read the lever (the -ledger Role grants
 * it); one without a record (--no-ledger, an identity without a namespace of its own) that may
 * not read it is told, through `unguarded`, that chaoskit halt will not stop it, and goes on:
 * as Chaos Toolkit would run it.
 */
export async function haltGuard(
  prepared: Prepared,
  namespace: string,
  options: Omit<PreflightOptions, 'ledgerNamespace'> & { unguarded?: (line: string) => void },
): Promise<RunGuard | undefined> {
  const watched: Array<{ kube: KubeClient; namespace: string; from: string | undefined }> = [];
  const levers = [...new Set([CLUSTER_HALT_NAMESPACE, namespace])];
  for (const connection of changedClusters(prepared, options)) {
    const kube = new KubeClient(connection);
    for (const lever of levers) {
      const read = await readHalt(kube, lever).catch((err: unknown) => {
        if (!(options.unguarded && err instanceof Refusal)) throw err;
        options.unguarded(
          `${err.message.replace(/: bind (there|in) .*$/, '')}; the run goes on without it (it keeps no record)`,
        );
        return undefined;
      });
      if (!read) continue;
      const { halt, resourceVersion } = read;
      if (halt) throw new Refusal(`the run does not start: ${describeHalt(halt)}`);
      watched.push({ kube, namespace: lever, from: resourceVersion });
    }
  }
  if (!watched.length) return undefined;
  let watches: Array<{ stop: () => void }> = [];
  return {
    start(interrupt) {
      // From the version read: a halt set since is seen as the watch's first event.
      watches = watched.map(({ kube, namespace: lever, from }) =>
        watchHalt(kube, lever, from, (halt) =>
          interrupt({ by: 'halt', name: HALT_NAME, reason: describeHalt(halt) }),
        ),
      );
    },
    stop() {
      for (const watch of watches) watch.stop();
    },
  };
}
