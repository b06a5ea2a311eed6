import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCluster, start } from '@chaoskit/cluster';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceCase } from './case.js';
import type { ClusterInfo } from './case-context.js';
import { loadCases } from './cases/index.js';
import { onKubeconfig, runKit } from './kit/test-kit-command.js';
import { localClusterInfo } from './running/cluster.js';
import { describeCases } from './test-cases.js';

// The scenarios on running containers, on a local cluster of its own with two real nodes
// (kubelet, containerd, runc, CNI bridge, kube-proxy, kube-router each): every other scenario
// runs in cases-*.cluster.test.ts. Where this machine cannot run real nodes, each scenario is
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
  Object.assign(cluster, localClusterInfo(local, kc));
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

describe("the kit on a user's cluster whose pods run", () => {
  it('runs the scenarios on running containers through a kubeconfig, with the image it is given', async (ctx) => {
    if (!cluster.running) return ctx.skip(`needs real nodes: ${cluster.noRunning}`);
    const dir = await mkdtemp(join(tmpdir(), 'chaoskit-kit-running-'));
    try {
      const run = await runKit(dir, [
        ...onKubeconfig(local),
        '--only',
        'exec_in_pods',
        '--toolbox-image',
        local.images!.toolbox,
        '--report',
        dir,
      ]);
      expect(run.code, run.stderr.slice(-4000)).toBe(0);
      expect(run.stderr).toMatch(/1 of 1 activities passed, 0 failed, 0 skipped/);
      const junit = await readFile(join(dir, 'conformance.junit.xml'), 'utf8');
      // Passed: a test case with no <skipped> or <failure> inside.
      expect(junit).toMatch(/<testcase [^>]*name="on running containers: [^"]*"[^>]*><\/testcase>/);
      expect(junit).not.toContain('needs pods that really run');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
