// The run's cluster, as a test file sees it: what chaoskit's global setup provided, or the
// shared cluster of chaoskit's own test suite (@chaoskit/cluster/vitest-global-setup).

import { readFileSync } from 'node:fs';
import {
  type MeshTraffic,
  type MeshTrafficOptions,
  meshTraffic as startMeshTraffic,
  xdsBootstrap,
} from '@chaoskit/cluster';
import { inject } from 'vitest';
import type { ChaosCluster } from './global-setup.js';

/** The run's cluster; throws saying how to get one when no global setup provided it. */
export function chaosCluster(): ChaosCluster {
  const provided = inject('chaoskit');
  if (provided) return provided;
  const shared = (inject as (key: string) => { kubeconfigPath: string; context: string } | undefined)(
    'cluster',
  );
  if (shared)
    return {
      kubeconfigPath: shared.kubeconfigPath,
      context: shared.context,
      provider: 'local',
      realNodes: [],
    };
  throw new Error(
    "no cluster for chaos tests: add '@chaoskit/vitest/global-setup' to test.globalSetup in vitest.config (a local cluster, or CHAOSKIT_CONTEXT=<context> for one of your kubeconfig)",
  );
}

/** Why the run's cluster cannot carry mesh traffic, or undefined when it can. */
export function meshUnavailable(cluster = chaosCluster()): string | undefined {
  return cluster.xdsAddress
    ? undefined
    : 'the cluster runs no istiod (CHAOSKIT_MESH=istiod starts one with the local cluster)';
}

/**
 * Real gRPC traffic through the run's mesh (istiod, a proxyless client): backends behind mesh
 * hosts, sent on named routes; `errorRateOf` reads a route's numbers. Stop it with `await using`.
 */
export function meshTraffic(options: Omit<MeshTrafficOptions, 'cluster'>): Promise<MeshTraffic> {
  const cluster = chaosCluster();
  const why = meshUnavailable(cluster);
  if (why) throw new Error(`meshTraffic: ${why}`);
  const address = cluster.xdsAddress as string;
  return startMeshTraffic({
    ...options,
    cluster: {
      kubeconfig: readFileSync(cluster.kubeconfigPath, 'utf8'),
      istiod: { xdsBootstrap: (o) => xdsBootstrap(address, o) },
    },
  });
}
