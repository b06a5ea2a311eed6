import assert from 'node:assert/strict';
import { cordonNodeActivity } from '@chaoskit/chaoscluster-node';
import { isChaosError } from '@chaoskit/core';
import { defineCase } from '../../case.js';
import { failure, isCordoned, scenarioNodes, scenarioSelector } from './fixtures.js';

export default defineCase({
  activity: cordonNodeActivity,
  needs: { nodes: true },
  scenarios: [
    {
      name: 'by label_selector it cordons exactly the matching nodes',
      async run(t) {
        const group = await scenarioNodes(t, 2, { 'chaoskit.io/group': 'a' }, 'a');
        const [other] = await scenarioNodes(t, 1, { 'chaoskit.io/group': 'b' }, 'b');
        const result = await t.call({
          label_selector: `${scenarioSelector(t)},chaoskit.io/group=a`,
        });
        assert.deepEqual([...result.nodes].sort(), group);
        for (const node of group) assert.equal(await isCordoned(t, node), true, `${node} cordoned`);
        assert.equal(await isCordoned(t, other!), false, 'the other node is untouched');
      },
    },
    {
      name: 'by name it cordons that node only; name and label_selector combine',
      async run(t) {
        const [a, b] = await scenarioNodes(t, 2);
        const result = await t.call({ name: a });
        assert.deepEqual(result.nodes, [a]);
        assert.equal(await isCordoned(t, a!), true);
        assert.equal(await isCordoned(t, b!), false);
        const both = await t.call({ name: b, label_selector: scenarioSelector(t) });
        assert.deepEqual(both.nodes, [b]);
        assert.equal(await isCordoned(t, b!), true);
      },
    },
    {
      name: 'an already cordoned node is not patched again and is still in the result',
      async run(t) {
        const [a, b] = await scenarioNodes(t, 2);
        await t.call({ name: a });
        const since = new Date();
        const result = await t.call({ label_selector: scenarioSelector(t) });
        assert.deepEqual([...result.nodes].sort(), [a, b]);
        const patches = (await t.requestsSince(since)).filter((e) => e.verb === 'patch');
        assert.deepEqual(
          patches.map((e) => e.objectRef?.name),
          [b],
        );
        assert.equal(await isCordoned(t, b!), true);
      },
    },
    {
      name: 'no matching node is an ActivityFailed and nothing is patched',
      async run(t) {
        const [a] = await scenarioNodes(t, 1);
        const since = new Date();
        const byLabel = await failure(t, { label_selector: `${scenarioSelector(t)},missing=yes` });
        assert.ok(isChaosError(byLabel, 'ActivityFailed'));
        assert.match(byLabel.message, /no node matching label selector/);
        const byName = await failure(t, { name: `${a}-absent` });
        assert.ok(isChaosError(byName, 'ActivityFailed'));
        assert.match(byName.message, new RegExp(`no node named '${a}-absent'`));
        const mismatch = await failure(t, { name: a, label_selector: `${scenarioSelector(t)},missing=yes` });
        assert.ok(isChaosError(mismatch, 'ActivityFailed'));
        assert.equal((await t.requestsSince(since)).filter((e) => e.verb === 'patch').length, 0);
        assert.equal(await isCordoned(t, a!), false);
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ label_selector: scenarioSelector(t), nodes: 'x' }, 'nodes');
        await t.expectRefused({ name: 5 }, 'name');
        await t.expectRefused({ name: 'Upper_Case' }, 'name');
        await t.expectRefused({ label_selector: ['a=b'] }, 'label_selector');
        await t.expectRefused({ label_selector: 'a in (b' }, 'label_selector');
      },
    },
  ],
});
