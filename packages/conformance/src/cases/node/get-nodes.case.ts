import assert from 'node:assert/strict';
import { getNodesActivity, type NodeJson } from '@chaoskit/chaoscluster-node';
import { defineCase } from '../../case.js';
import { scenarioNodes, scenarioSelector } from './fixtures.js';

/** The case's nodes carry labels (the API leaves out a node's `labels` only when it has none). */
type LabelledNode = NodeJson & { metadata: { labels: Record<string, string> } };

export default defineCase({
  activity: getNodesActivity,
  needs: { nodes: true },
  scenarios: [
    {
      name: 'with a label selector it returns exactly the case nodes, as a NodeList',
      async run(t) {
        const nodes = await scenarioNodes(t, 2);
        const list = await t.call({ label_selector: scenarioSelector(t) });
        assert.equal(list.kind, 'NodeList');
        assert.equal(list.apiVersion, 'v1');
        assert.match(list.metadata.resourceVersion ?? '', /^\d+$/);
        const items = list.items as LabelledNode[];
        assert.deepEqual(items.map((n) => n.metadata.name).sort(), nodes);
        // As the API sent it: plain JSON, timestamps in RFC 3339 at second precision.
        assert.match(items[0]!.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.equal(items[0]!.metadata.labels.type, 'kwok');
        assert.deepEqual(JSON.parse(JSON.stringify(list)), list);
      },
    },
    {
      name: 'a selector matching nothing returns an empty list; without one, every node',
      async run(t) {
        const nodes = await scenarioNodes(t, 1);
        const none = await t.call({ label_selector: `${scenarioSelector(t)},missing=yes` });
        assert.equal(none.kind, 'NodeList');
        assert.deepEqual(none.items, []);
        const all = await t.call({});
        const names = all.items.map((n) => n.metadata.name);
        assert.ok(names.includes(nodes[0]!), 'the case node is listed');
        assert.ok(names.length > 1, 'and the cluster’s other nodes too');
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ label_selector: 'a in (b' }, 'label_selector');
        await t.expectRefused({ label_selector: 7 }, 'label_selector');
        await t.expectRefused({ labels: 'a=b' }, 'labels');
        await t.expectRefused({ configuration: {} }, 'configuration');
      },
    },
  ],
});
