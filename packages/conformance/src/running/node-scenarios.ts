import assert from 'node:assert/strict';
import type { drainNodesActivity } from '@chaoskit/chaoscluster-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { Scenario } from '../case.js';
import { type CaseContext, ScenarioSkipped } from '../case-context.js';
import { runningPods, webApp, webPods } from './app.js';
import { describeWindow } from './traffic.js';

async function cordon(t: CaseContext, node: string, unschedulable: boolean): Promise<void> {
  await t.core.patchNode(
    { name: node, body: { spec: { unschedulable } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

/** Pods of other namespaces on `node` that no controller manages: a drain would refuse them. */
async function barePods(t: CaseContext, node: string): Promise<string[]> {
  const pods = await t.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` });
  return pods.items
    .filter((p) => p.metadata?.namespace !== t.ns && !p.metadata?.ownerReferences?.some((o) => o.controller))
    .map((p) => `${p.metadata!.namespace}/${p.metadata!.name}`);
}

/** Two of the nodes: A, which a drain can empty (once the pods of earlier scenarios are gone), and B. */
async function drainPair(t: CaseContext, nodes: string[]): Promise<[string, string]> {
  let seen: string[] = [];
  const a = await t
    .until(
      'a node whose pods all have a controller',
      async () => {
        for (const node of nodes) {
          const bare = await barePods(t, node);
          if (bare.length === 0) return node;
          seen = bare;
        }
        return undefined;
      },
      120_000,
    )
    .catch(() => {
      throw new ScenarioSkipped(
        `every node runs pods without a controller, which a drain refuses: ${seen.join(', ')}`,
      );
    });
  return [a, nodes.find((n) => n !== a)!];
}

export const drainRunning: Scenario<typeof drainNodesActivity> = {
  name: 'on running containers: draining node A evicts its pods; they start again on node B, Ready, serving through the Service',
  running: true,
  timeoutMs: 300_000,
  async run(t) {
    const nodes = runningPods(t).nodes;
    if (nodes.length < 2)
      throw new ScenarioSkipped('needs two nodes whose pods really run, to drain one into the other');
    const [a, b] = await drainPair(t, nodes);
    try {
      // Every web pod on A: B is cordoned while they start. The client stays on B.
      await cordon(t, b, true);
      const { traffic } = await webApp(t, 2, { nodes: [a, b], clientNode: b });
      const before = await webPods(t);
      assert.ok(
        before.every((p) => p.node === a),
        `web pods on ${a}: ${JSON.stringify(before)}`,
      );
      await cordon(t, b, false);
      const from = await traffic.mark();
      const result = await t.call({ name: a, timeout: 120 });
      assert.deepEqual(result.nodes, [a]);
      for (const p of before) assert.ok(result.evicted.includes(`${t.ns}/${p.name}`), `${p.name} evicted`);
      const after = await t.until(
        `2 web pods Ready on ${b}`,
        async () => {
          const pods = await webPods(t);
          return pods.length === 2 && pods.every((p) => p.ready && p.node === b) ? pods : undefined;
        },
        120_000,
      );
      await traffic.untilSince(
        from,
        (w) => after.some((p) => (w.servedBy[p.name] ?? 0) > 0),
        `the pods on ${b} serving through the Service`,
      );
      const during = await traffic.since(from);
      for (const p of after) assert.ok(!before.some((o) => o.containerId === p.containerId));
      t.log(
        `running: drain_nodes ${a}: evicted ${before.map((p) => `${p.name} (${p.containerId.slice(13, 25)})`).join(', ')}; on ${b} now ${after.map((p) => `${p.name} (${p.containerId.slice(13, 25)})`).join(', ')}; ${describeWindow(during)}`,
      );
    } finally {
      await cordon(t, a, false).catch(() => undefined);
      await cordon(t, b, false).catch(() => undefined);
    }
  },
};
