// The halt lever as a guard of a run (D128): read in every cluster the run changes before it
// starts (a run refuses while halted), then watched there until its rollbacks start.

import { KubeClient } from '@chaoskit/core';
import { Refusal } from '../errors.js';
import type { Prepared } from '../experiment.js';
import { changedClusters, type PreflightOptions } from '../preflight.js';
import type { RunGuard } from '../run/state.js';
import { describeHalt, HALT_NAME, readHalt, watchHalt } from './halt.js';

/**
 * Refuses the run (a Refusal giving the reason and who halted) when the lever is set in a
 * cluster it changes; otherwise the guard that watches it there (none when the run changes no
 * cluster).
 */
export async function haltGuard(
  prepared: Prepared,
  namespace: string,
  options: Omit<PreflightOptions, 'ledgerNamespace'>,
): Promise<RunGuard | undefined> {
  const watched: Array<{ kube: KubeClient; from: string | undefined }> = [];
  for (const connection of changedClusters(prepared, options)) {
    const kube = new KubeClient(connection);
    const { halt, resourceVersion } = await readHalt(kube, namespace);
    if (halt) throw new Refusal(`the run does not start: ${describeHalt(halt, namespace)}`);
    watched.push({ kube, from: resourceVersion });
  }
  if (!watched.length) return undefined;
  let watches: Array<{ stop: () => void }> = [];
  return {
    start(interrupt) {
      // From the version read: a halt set since is seen as the watch's first event.
      watches = watched.map(({ kube, from }) =>
        watchHalt(kube, namespace, from, (halt) =>
          interrupt({ by: 'halt', name: HALT_NAME, reason: describeHalt(halt, namespace) }),
        ),
      );
    },
    stop() {
      for (const watch of watches) watch.stop();
    },
  };
}
