import assert from 'node:assert/strict';
import { deleteNodesActivity } from '@chaoskit/chaoscluster-node';
import { isChaosError } from '@chaoskit/core';
import { defineCase } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { existingNodes, failure, nodesNamed, scenarioNodes, scenarioSelector } from './fixtures.js';

/** The node deletions the case identity sent since `since`, by node name. */
async function deletions(t: CaseContext, since: Date): Promise<string[]> {
  return (await t.requestsSince(since))
    .filter((e) => e.verb === 'delete' && e.objectRef?.resource === 'nodes')
    .map((e) => e.objectRef!.name!)
    .sort();
}

export default defineCase({
  activity: deleteNodesActivity,
  needs: { nodes: true },
  scenarios: [
    {
      name: 'all deletes every matching node, each once (D1)',
      async run(t) {
        const nodes = await scenarioNodes(t, 3);
        const since = new Date();
        const result = await t.call({ label_selector: scenarioSelector(t), all: true });
        assert.deepEqual([...result.nodes].sort(), nodes);
        assert.equal(result.seed, undefined);
        assert.deepEqual(await existingNodes(t), []);
        assert.deepEqual(await deletions(t, since), nodes);
      },
    },
    {
      name: 'count deletes that many distinct nodes at random; the seed repeats the choice',
      async run(t) {
        const nodes = await scenarioNodes(t, 4);
        const since = new Date();
        const first = await t.call({ label_selector: scenarioSelector(t), count: 2, seed: 99 });
        assert.equal(first.seed, 99);
        assert.equal(first.nodes.length, 2);
        assert.equal(new Set(first.nodes).size, 2, 'no node twice (D3)');
        const kept = nodes.filter((n) => !first.nodes.includes(n));
        assert.deepEqual(await existingNodes(t), kept);
        assert.deepEqual(await deletions(t, since), [...first.nodes].sort());

        // The same nodes again, the same seed: the same choice.
        await nodesNamed(t, first.nodes);
        const again = await t.call({ label_selector: scenarioSelector(t), count: 2, seed: 99 });
        assert.deepEqual(again.nodes, first.nodes);

        // More than there are: each of them, once.
        const rest = new Date();
        const many = await t.call({ label_selector: scenarioSelector(t), count: 10 });
        assert.deepEqual([...many.nodes].sort(), kept);
        assert.equal(typeof many.seed, 'number');
        assert.deepEqual(await existingNodes(t), []);
        assert.deepEqual(await deletions(t, rest), kept);
      },
    },
    {
      name: 'rand deletes one node; the default deletes the first node',
      async run(t) {
        const nodes = await scenarioNodes(t, 3);
        const picked = await t.call({ label_selector: scenarioSelector(t), rand: true });
        assert.equal(picked.nodes.length, 1);
        assert.ok(nodes.includes(picked.nodes[0]!));
        assert.equal(typeof picked.seed, 'number');
        const left = nodes.filter((n) => n !== picked.nodes[0]);
        assert.deepEqual(await existingNodes(t), left);

        const first = await t.call({ label_selector: scenarioSelector(t) });
        assert.deepEqual(first, { nodes: [left[0]] });
        assert.deepEqual(await existingNodes(t), [left[1]]);
      },
    },
    {
      name: 'pod_label_selector + pod_namespace select the nodes hosting matching pods, never twice',
      async run(t) {
        const [n0, n1, n2] = await scenarioNodes(t, 3);
        await t.createPods(['marker-1', 'marker-2'], { app: 'marker' }, t.onNode(n2!));
        await t.createPods(['other'], { app: 'other' }, t.onNode(n0!));
        const since = new Date();
        const result = await t.call({
          label_selector: scenarioSelector(t),
          pod_label_selector: 'app=marker',
          pod_namespace: t.ns,
          all: true,
          grace_period_seconds: 0,
        });
        assert.deepEqual(result.nodes, [n2]);
        assert.deepEqual(await existingNodes(t), [n0, n1]);
        assert.deepEqual(await deletions(t, since), [n2]);
      },
    },
    {
      name: 'no matching node is an ActivityFailed and nothing is deleted',
      async run(t) {
        const nodes = await scenarioNodes(t, 2);
        const since = new Date();
        const byLabel = await failure(t, { label_selector: `${scenarioSelector(t)},missing=yes`, all: true });
        assert.ok(isChaosError(byLabel, 'ActivityFailed'));
        assert.match(byLabel.message, /no node matching label selector/);
        const byPods = await failure(t, {
          label_selector: scenarioSelector(t),
          pod_label_selector: 'app=nowhere',
          pod_namespace: t.ns,
        });
        assert.ok(isChaosError(byPods, 'ActivityFailed'));
        assert.match(byPods.message, /hosting a pod that matches 'app=nowhere'/);
        assert.deepEqual(await deletions(t, since), []);
        assert.deepEqual(await existingNodes(t), nodes);
      },
    },
    {
      name: 'bad arguments are refused before any request; nothing is deleted',
      async run(t) {
        const nodes = await scenarioNodes(t, 1);
        const sel = scenarioSelector(t);
        await t.expectRefused({ label_selector: sel, name: nodes[0] }, 'name');
        await t.expectRefused({ label_selector: sel, all: 'yes' }, 'all');
        await t.expectRefused({ label_selector: sel, rand: 1 }, 'rand');
        await t.expectRefused({ label_selector: sel, count: -1 }, 'count');
        await t.expectRefused({ label_selector: sel, count: '2' }, 'count');
        await t.expectRefused({ label_selector: sel, grace_period_seconds: -1 }, 'grace_period_seconds');
        await t.expectRefused({ label_selector: 'a in (b' }, 'label_selector');
        await t.expectRefused({ label_selector: sel, pod_label_selector: 'app=x' }, 'pod_namespace');
        await t.expectRefused({ label_selector: sel, pod_namespace: t.ns }, 'pod_label_selector');
        await t.expectRefused(
          { label_selector: sel, pod_label_selector: 'app=x', pod_namespace: 'Not A Namespace' },
          'pod_namespace',
        );
        await t.expectRefused({ label_selector: sel, seed: 'abc' }, 'seed');
        assert.deepEqual(await existingNodes(t), nodes);
      },
    },
  ],
});
