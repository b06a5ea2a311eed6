// chaoskit's own run of the conformance cases on the shared local cluster. They are split over
// three files (cases-<part>.cluster.test.ts) so that vitest's workers share them: as one file
// they were 16 of a 46-minute CI run, the last of it on one worker while the other idled.
import { sharedCluster } from '@chaoskit/cluster/testing';
import type { ClusterInfo } from './case-context.js';
import { discoverCases } from './cases/index.js';
import { describeCases } from './test-cases.js';

/** Which file runs which case groups: each group in exactly one (test-shared-cases.test.ts checks). */
export const SHARED_CASE_PARTS = {
  objects: ['crd', 'deployment', 'deprecated', 'replicaset'],
  workloads: ['node', 'pod', 'service', 'statefulset'],
  traffic: ['networking'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The groups whose every scenario runs on a cluster of their own: the mesh cases on a local
 * cluster with istiod (mesh-traffic.cluster.test.ts), the same scenarios as on the shared cluster
 * and those that need istiod. Run on the shared cluster too, they were each run twice.
 */
export const OWN_CLUSTER_GROUPS: readonly string[] = ['mesh'];

export async function describeSharedCases(part: keyof typeof SHARED_CASE_PARTS): Promise<void> {
  const shared = sharedCluster();
  const cluster: ClusterInfo = {
    provider: 'local',
    kc: shared.kc,
    server: shared.credentials.server,
    caFile: shared.credentials.caFile,
    auditLogPath: shared.auditLogPath,
    fakeNodes: true,
    podLogFile: shared.podLogFile,
    noMeshXds:
      "the shared test cluster has Istio's CRDs but no istiod; mesh-traffic.cluster.test.ts runs these scenarios on a local cluster with istiod",
    noRunning:
      'the shared test cluster has kwok nodes only; running.cluster.test.ts runs these scenarios on a local cluster with real nodes',
  };
  const groups: readonly string[] = SHARED_CASE_PARTS[part];
  const cases = (await discoverCases()).filter((d) => groups.includes(d.group)).map((d) => d.case);
  describeCases(cluster, cases);
}
