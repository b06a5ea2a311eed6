import { type LocalCluster, start } from '@chaoskit/cluster';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe } from 'vitest';
import type { ConformanceCase } from './case.js';
import type { ClusterInfo } from './case-context.js';
import { loadCases } from './cases/index.js';
import { runningOn } from './running/cluster.js';
import { describeCases } from './test-cases.js';

// The scenarios on running containers, on a local cluster of its own with two real nodes
// (kubelet, containerd, runc, CNI bridge, kube-proxy, kube-router each): every other scenario
// runs in cases.cluster.test.ts. Where this machine cannot run real nodes, each scenario is
// skipped with the reason. The evidence is printed (`running: <activity> …` lines).

const cases: ConformanceCase[] = (await loadCases())
  .map((c) => ({ ...c, scenarios: c.scenarios.filter((s) => s.running) }))
  .filter((c) => c.scenarios.length > 0);
let local: LocalCluster;
// Filled in before the cases' own set-up runs (describeCases reads it in their beforeAll).
const cluster = { provider: 'local', fakeNodes: true } as ClusterInfo;

beforeAll(async () => {
  const began = Date.now();
  local = await start({ provider: 'local', nodes: 1, realNodes: 2, mesh: false });
  const kc = new KubeConfig();
  kc.loadFromString(local.kubeconfig);
  Object.assign(cluster, {
    kc,
    server: local.credentials.server,
    caFile: local.credentials.caFile,
    auditLogPath: local.auditLogPath,
    podLogFile: local.podLogFile,
    ...runningOn(local),
  } satisfies Partial<ClusterInfo>);
  console.log(
    `running: cluster with real nodes ${local.realNodes.join(', ') || '(none)'} ready in ${Date.now() - began} ms`,
  );
}, 1_200_000);

afterAll(async () => {
  await local?.stop();
});

// Each scenario has a namespace of its own: they run at once, but for the drain, which cordons
// and empties a node under them, and runs alone after.
const drains = (c: ConformanceCase) => c.activity.name === 'drain_nodes';
describe.concurrent('at once', () =>
  describeCases(
    cluster,
    cases.filter((c) => !drains(c)),
  ));
describeCases(cluster, cases.filter(drains));
