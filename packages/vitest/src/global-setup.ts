// vitest's global setup for chaos tests: one cluster for the whole run, handed to every test
// file. `CHAOSKIT_CONTEXT` names a context of the user's kubeconfig (KUBECONFIG, else
// ~/.kube/config) to use; otherwise a disposable local cluster is started (@chaoskit/cluster:
// kwok nodes, real nodes where the machine can run them, istiod when asked) and stopped after.
//
//   // vitest.config.ts
//   test: { globalSetup: ['@chaoskit/vitest/global-setup'] }
//
// or, with options: a file of your own whose default export is `chaosSetup({ … })`.

import { start } from '@chaoskit/cluster';
import type { TestProject } from 'vitest/node';

/** What a test file gets of the run's cluster (`inject('chaoskit')`). */
export interface ChaosCluster {
  /** A kubeconfig file for it, and the context to use. */
  kubeconfigPath: string;
  context: string;
  /** `local` (started for this run) or `kubeconfig` (the user's context). */
  provider: 'local' | 'kubeconfig';
  /** The local cluster's real nodes (running containers), when it has some. */
  realNodes: string[];
  /** Why real nodes were asked for and could not run here. */
  realNodesUnavailable?: string;
  /** istiod's plaintext xDS address, when the cluster runs one (mesh traffic needs it). */
  xdsAddress?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    chaoskit: ChaosCluster;
  }
}

export interface ChaosSetupOptions {
  /** A context of the user's kubeconfig instead of a local cluster (default $CHAOSKIT_CONTEXT). */
  context?: string;
  /** Its kubeconfig file (default KUBECONFIG's first file, else ~/.kube/config). */
  kubeconfigPath?: string;
  /** Local cluster: kwok nodes (default 3). */
  nodes?: number;
  /** Local cluster: real nodes (default $CHAOSKIT_REAL_NODES, else 0); without them on this machine it says why. */
  realNodes?: number;
  /** Local cluster: run istiod too (default: $CHAOSKIT_MESH is `istiod`); Istio's CRDs are always applied. */
  istiod?: boolean;
}

/** A global setup with these options. */
export function chaosSetup(options: ChaosSetupOptions = {}) {
  return async function setup(project: TestProject): Promise<() => Promise<void>> {
    const context = options.context ?? process.env.CHAOSKIT_CONTEXT;
    const progress = (line: string) => process.stderr.write(`chaoskit: ${line}\n`);
    if (context) {
      const cluster = await start({
        provider: 'kubeconfig',
        context,
        ...(options.kubeconfigPath ? { kubeconfigPath: options.kubeconfigPath } : {}),
        progress,
      });
      project.provide('chaoskit', {
        kubeconfigPath: cluster.kubeconfigPath,
        context: cluster.context,
        provider: 'kubeconfig',
        realNodes: [],
      });
      return () => cluster.stop();
    }
    const realNodes = options.realNodes ?? Number(process.env.CHAOSKIT_REAL_NODES ?? 0);
    const istiod = options.istiod ?? process.env.CHAOSKIT_MESH === 'istiod';
    const cluster = await start({
      provider: 'local',
      nodes: options.nodes ?? 3,
      realNodes,
      mesh: istiod ? 'istiod' : true,
      progress,
    });
    project.provide('chaoskit', {
      kubeconfigPath: cluster.kubeconfigPath,
      context: cluster.context,
      provider: 'local',
      realNodes: cluster.realNodes,
      ...(cluster.realNodesUnavailable ? { realNodesUnavailable: cluster.realNodesUnavailable } : {}),
      ...(cluster.istiod ? { xdsAddress: cluster.istiod.xdsAddress } : {}),
    });
    return () => cluster.stop();
  };
}

export default chaosSetup();
