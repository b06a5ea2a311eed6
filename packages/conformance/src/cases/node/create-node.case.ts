import assert from 'node:assert/strict';
import { createNodeActivity } from '@chaoskit/chaoscluster-node';
import { isChaosError } from '@chaoskit/core';
import { defineCase } from '../../case.js';
import { CASE_LABEL, type CaseContext } from '../../case-context.js';
import { failure, SCENARIO_LABEL, scenarioSelector } from './fixtures.js';

/** meta and spec of a node of the scenario: its labels, and the case's taint (so no other pod lands there). */
function nodeArgs(t: CaseContext, meta: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return {
    meta: { labels: { ...t.labels, [SCENARIO_LABEL]: t.ns, type: 'kwok' }, ...meta },
    spec: { taints: [{ key: CASE_LABEL, value: t.id, effect: 'NoSchedule' }], ...spec },
  };
}

/** Deletes the node when the case ends, whatever its name turns out to be. */
function removeLater(t: CaseContext, name: string): void {
  t.onCleanup(() => t.core.deleteNode({ name }));
}

export default defineCase({
  activity: createNodeActivity,
  needs: { nodes: true },
  scenarios: [
    {
      name: 'create_node creates the node from the API field names and returns it',
      async run(t) {
        const name = `${t.ns}-created`;
        removeLater(t, name);
        const node = await t.call(nodeArgs(t, { name }, { podCIDR: '10.250.0.0/24' }));
        assert.equal(node.kind, 'Node');
        assert.equal(node.apiVersion, 'v1');
        assert.equal(node.metadata.name, name);
        assert.match(node.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.equal(node.spec?.podCIDR, '10.250.0.0/24');

        const stored = await t.core.readNode({ name });
        assert.equal(stored.metadata?.uid, node.metadata.uid);
        assert.equal(stored.metadata?.labels?.[SCENARIO_LABEL], t.ns);
        assert.equal(stored.spec?.podCIDR, '10.250.0.0/24');
        // The case's taint is there (admission may add node.kubernetes.io/not-ready next to it).
        assert.ok(
          stored.spec?.taints?.some((taint) => taint.key === CASE_LABEL && taint.effect === 'NoSchedule'),
        );
        const listed = await t.core.listNode({ labelSelector: scenarioSelector(t) });
        assert.deepEqual(
          listed.items.map((n) => n.metadata?.name),
          [name],
        );
      },
    },
    {
      name: 'generateName gives the node a name of the server',
      async run(t) {
        const node = await t.call(nodeArgs(t, { generateName: `${t.ns}-gen-` }));
        removeLater(t, node.metadata.name);
        assert.ok(node.metadata.name.startsWith(`${t.ns}-gen-`));
        assert.equal((await t.core.readNode({ name: node.metadata.name })).metadata?.uid, node.metadata.uid);
      },
    },
    {
      name: 'an existing name is an ActivityFailed with the server’s reason',
      async run(t) {
        const name = `${t.ns}-twice`;
        removeLater(t, name);
        await t.call(nodeArgs(t, { name }));
        const err = await failure(t, nodeArgs(t, { name }));
        assert.ok(isChaosError(err, 'ActivityFailed'));
        assert.match(err.message, /^Creating new node failed: .*already exists/);
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        const name = `${t.ns}-never`;
        await t.expectRefused({ meta: { name }, status: {} }, 'status');
        await t.expectRefused({}, 'meta');
        await t.expectRefused({ meta: { labels: { a: 'b' } } }, 'meta');
        await t.expectRefused({ meta: 'node-1' }, 'meta');
        await t.expectRefused({ meta: { name }, spec: ['unschedulable'] }, 'spec');
        // The Python client's snake_case names are not the API's.
        await t.expectRefused({ meta: { name }, spec: { pod_cidr: '10.0.0.0/24' } }, 'spec');
        await t.expectRefused({ meta: { name, generate_name: 'x-' } }, 'meta');
        await t.expectRefused(
          { meta: { name }, spec: { taints: [{ key: 'k', efect: 'NoSchedule' }] } },
          'spec',
        );
        await assert.rejects(t.core.readNode({ name }));
      },
    },
  ],
});
