import { sharedCluster } from '@chaoskit/cluster/testing';
import type { ClusterInfo } from './case-context.js';
import { loadCases } from './cases/index.js';
import { describeCases } from './test-cases.js';

// chaoskit's own run of the conformance cases, on the shared local cluster.
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

describeCases(cluster, await loadCases());
