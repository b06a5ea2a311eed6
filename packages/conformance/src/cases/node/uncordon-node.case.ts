import assert from 'node:assert/strict';
import { uncordonNodeActivity } from '@chaoskit/chaoscluster-node';
import { isChaosError } from '@chaoskit/core';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { defineCase } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { failure, isCordoned, scenarioNodes, scenarioSelector } from './fixtures.js';

async function cordon(t: CaseContext, node: string): Promise<void> {
  await t.core.patchNode(
    { name: node, body: { spec: { unschedulable: true } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

export default defineCase({
  activity: uncordonNodeActivity,
  needs: { nodes: true },
  scenarios: [
    {
      name: 'by label_selector it uncordons exactly the matching nodes',
      async run(t) {
        const group = await scenarioNodes(t, 2, { 'chaoskit.io/group': 'a' }, 'a');
        const [other] = await scenarioNodes(t, 1, { 'chaoskit.io/group': 'b' }, 'b');
        for (const node of [...group, other!]) await cordon(t, node);
        const result = await t.call({
          label_selector: `${scenarioSelector(t)},chaoskit.io/group=a`,
        });
        assert.deepEqual([...result.nodes].sort(), group);
        for (const node of group) assert.equal(await isCordoned(t, node), false, `${node} schedulable`);
        assert.equal(await isCordoned(t, other!), true, 'the other node stays cordoned');
      },
    },
    {
      name: 'by name it uncordons that node only; a schedulable node is left unpatched',
      async run(t) {
        const [a, b] = await scenarioNodes(t, 2);
        await cordon(t, a!);
        await cordon(t, b!);
        const result = await t.call({ name: a });
        assert.deepEqual(result.nodes, [a]);
        assert.equal(await isCordoned(t, a!), false);
        assert.equal(await isCordoned(t, b!), true);
        const since = new Date();
        const all = await t.call({ label_selector: scenarioSelector(t) });
        assert.deepEqual([...all.nodes].sort(), [a, b]);
        const patches = (await t.requestsSince(since)).filter((e) => e.verb === 'patch');
        assert.deepEqual(
          patches.map((e) => e.objectRef?.name),
          [b],
        );
        assert.equal(await isCordoned(t, b!), false);
      },
    },
    {
      name: 'no matching node is an ActivityFailed and nothing is patched',
      async run(t) {
        const [a] = await scenarioNodes(t, 1);
        await cordon(t, a!);
        const since = new Date();
        const err = await failure(t, { label_selector: `${scenarioSelector(t)},missing=yes` });
        assert.ok(isChaosError(err, 'ActivityFailed'));
        assert.match(err.message, /no node matching label selector/);
        assert.equal((await t.requestsSince(since)).filter((e) => e.verb === 'patch').length, 0);
        assert.equal(await isCordoned(t, a!), true);
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ label_selector: scenarioSelector(t), unschedulable: false }, 'unschedulable');
        await t.expectRefused({ name: true }, 'name');
        await t.expectRefused({ label_selector: 42 }, 'label_selector');
        await t.expectRefused({ label_selector: 'a in (b' }, 'label_selector');
      },
    },
  ],
});
