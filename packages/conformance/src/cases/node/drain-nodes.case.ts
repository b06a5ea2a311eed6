import assert from 'node:assert/strict';
import { drainNodesActivity } from '@chaoskit/chaoscluster-node';
import { isChaosError } from '@chaoskit/core';
import { PolicyV1Api } from '@kubernetes/client-node';
import { defineCase } from '../../case.js';
import { CASE_LABEL, type CaseContext } from '../../case-context.js';
import { drainRunning } from '../../running/node-scenarios.js';
import {
  failure,
  isCordoned,
  pinnedTo,
  podsOn,
  scenarioNodes,
  scenarioSelector,
  secondsSince,
} from './fixtures.js';

const DS_LABEL = 'chaoskit.io/drain-ds';

/** A DaemonSet whose pods land on the nodes labelled DS_LABEL=<scenario namespace>. */
async function daemonSet(t: CaseContext, name: string): Promise<void> {
  await t.apps.createNamespacedDaemonSet({
    namespace: t.ns,
    body: {
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            nodeSelector: { [DS_LABEL]: t.ns },
            tolerations: [{ key: CASE_LABEL, operator: 'Exists', effect: 'NoSchedule' }],
            terminationGracePeriodSeconds: 1,
            containers: [{ name: 'agent', image: 'example.invalid/agent:1' }],
          },
        },
      },
    },
  });
}

/** Names of the pods of the scenario's namespace on a node, Terminating ones included. */
async function namesOn(t: CaseContext, node: string): Promise<string[]> {
  return (await podsOn(t, node))
    .filter((p) => p.metadata?.namespace === t.ns)
    .map((p) => p.metadata!.name!)
    .sort();
}

async function timedDrain(
  t: CaseContext<typeof drainNodesActivity>,
  what: string,
  args: Record<string, unknown>,
) {
  const started = Date.now();
  const outcome = await t.call(args).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error: error as Error }),
  );
  t.log(`timing: drain_nodes ${what} took ${secondsSince(started)}`);
  return outcome;
}

export default defineCase({
  activity: drainNodesActivity,
  needs: { nodes: true },
  scenarios: [
    {
      name: 'on a node with 10 pods and one DaemonSet pod it evicts the 10 and leaves the DaemonSet pod',
      async run(t) {
        const [node] = await scenarioNodes(t, 1, { [DS_LABEL]: t.ns });
        await daemonSet(t, 'agent');
        await t.deploy('web', 10, { podSpec: pinnedTo(t, node!) });
        const dsPod = await t.until('the DaemonSet pod running on the node', async () =>
          (await podsOn(t, node!)).find(
            (p) => p.metadata?.labels?.app === 'agent' && p.status?.phase === 'Running',
          ),
        );
        const web = (await namesOn(t, node!)).filter((n) => n.startsWith('web-'));
        assert.equal(web.length, 10);

        const since = new Date();
        const { value, error } = await timedDrain(t, '(10 pods + 1 DaemonSet pod, grace 1 s)', {
          label_selector: scenarioSelector(t),
          timeout: 60,
        });
        assert.ifError(error);
        const result = value!;
        assert.deepEqual(result.nodes, [node]);
        assert.deepEqual(
          [...result.evicted].sort(),
          web.map((n) => `${t.ns}/${n}`),
        );
        assert.deepEqual(result.skipped, [
          { pod: `${t.ns}/${dsPod.metadata!.name}`, node, reason: 'daemonset' },
        ]);
        assert.equal(result.seed, undefined);

        // On return, the 10 are gone (not even Terminating) and the DaemonSet pod stays.
        assert.equal(await isCordoned(t, node!), true);
        assert.deepEqual(await namesOn(t, node!), [dsPod.metadata!.name!]);
        const replacements = await t.core.listNamespacedPod({ namespace: t.ns, labelSelector: 'app=web' });
        assert.ok(
          replacements.items.every((p) => !p.spec?.nodeName),
          'the re-created web pods cannot land on the cordoned node',
        );

        // It waited with a watch, not by polling each pod: no pod read one by one, and at most two
        // lists of pods a round (up to 4 rounds: the node's pods, then the list its watch starts
        // from). The watch itself is opened only when that list still shows an evicted pod, which
        // on a loaded machine may already be gone.
        const requests = await t.requestsSince(since);
        const evictions = requests.filter((e) => e.objectRef?.subresource === 'eviction');
        assert.equal(evictions.length, 10);
        const onPods = (verb: string) =>
          requests.filter(
            (e) => e.verb === verb && e.objectRef?.resource === 'pods' && !e.objectRef.subresource,
          );
        assert.equal(onPods('get').length, 0);
        assert.ok(onPods('list').length <= 8, `${onPods('list').length} lists of pods`);
      },
    },
    {
      name: 'with a budget that allows no disruption it fails at timeout naming the budget and the pods left',
      async run(t) {
        const [node] = await scenarioNodes(t, 1);
        await t.deploy('guarded', 3, { podSpec: pinnedTo(t, node!) });
        const policy = t.kc.makeApiClient(PolicyV1Api);
        await policy.createNamespacedPodDisruptionBudget({
          namespace: t.ns,
          body: {
            metadata: { name: 'guarded-pdb' },
            spec: { minAvailable: 3, selector: { matchLabels: { app: 'guarded' } } },
          },
        });
        await t.until('the budget observed', async () => {
          const pdb = await policy.readNamespacedPodDisruptionBudget({
            name: 'guarded-pdb',
            namespace: t.ns,
          });
          return pdb.status?.expectedPods === 3 && pdb.status.disruptionsAllowed === 0;
        });
        const before = await namesOn(t, node!);

        const { error } = await timedDrain(t, '(3 pods blocked by a budget, timeout 3 s)', {
          name: node,
          timeout: 3,
        });
        assert.ok(isChaosError(error, 'ActivityFailed'), `expected ActivityFailed, got ${String(error)}`);
        assert.match(error!.message, new RegExp(`disruption budget\\(s\\) ${t.ns}/guarded-pdb`));
        assert.match(error!.message, /within 3s/);
        for (const pod of before) assert.ok(error!.message.includes(`${t.ns}/${pod}`), `names ${pod}`);
        t.log(`drain_nodes failed as expected: ${error!.message}`);

        // Nothing was evicted: the three are still there and not terminating; the node is cordoned.
        const pods = (await podsOn(t, node!)).filter((p) => p.metadata?.namespace === t.ns);
        assert.deepEqual(pods.map((p) => p.metadata!.name!).sort(), before);
        assert.ok(pods.every((p) => !p.metadata?.deletionTimestamp));
        assert.equal(await isCordoned(t, node!), true);
      },
    },
    {
      name: 'with label_selector matching two nodes it drains both',
      async run(t) {
        const [a, b] = await scenarioNodes(t, 2);
        await t.deploy('on-a', 3, { podSpec: pinnedTo(t, a!) });
        await t.deploy('on-b', 3, { podSpec: pinnedTo(t, b!) });
        const { value, error } = await timedDrain(t, '(2 nodes, 3 pods each)', {
          label_selector: scenarioSelector(t),
          timeout: 60,
        });
        assert.ifError(error);
        assert.deepEqual([...value!.nodes].sort(), [a, b]);
        assert.equal(value!.evicted.length, 6);
        for (const node of [a!, b!]) {
          assert.equal(await isCordoned(t, node), true, `${node} cordoned`);
          assert.deepEqual(await namesOn(t, node), [], `${node} drained`);
        }
      },
    },
    {
      name: 'a pod without a controller refuses the drain before anything is evicted; the cordon is undone',
      async run(t) {
        const [node] = await scenarioNodes(t, 1);
        await t.deploy('managed', 2, { podSpec: pinnedTo(t, node!) });
        await t.createPods(['bare'], { app: 'bare' }, t.onNode(node!));
        const before = await namesOn(t, node!);
        const since = new Date();
        const err = await failure(t, { name: node, timeout: 30 });
        assert.ok(isChaosError(err, 'ActivityFailed'));
        assert.match(err.message, new RegExp(`${t.ns}/bare on node ${node}`));
        assert.match(err.message, /Nothing was evicted/);
        assert.deepEqual(await namesOn(t, node!), before);
        assert.ok((await podsOn(t, node!)).every((p) => !p.metadata?.deletionTimestamp));
        assert.equal(await isCordoned(t, node!), false, 'the cordon is undone');
        const requests = await t.requestsSince(since);
        assert.equal(requests.filter((e) => e.objectRef?.subresource === 'eviction').length, 0);
      },
    },
    {
      name: 'pods with local storage stay without delete_pods_with_local_storage and go with it',
      async run(t) {
        const [node] = await scenarioNodes(t, 1);
        await t.deploy('scratch', 2, {
          podSpec: { ...pinnedTo(t, node!), volumes: [{ name: 'tmp', emptyDir: {} }] },
        });
        const pods = await namesOn(t, node!);
        const kept = await timedDrain(t, '(2 emptyDir pods, flag off)', { name: node, timeout: 30 });
        assert.ifError(kept.error);
        assert.deepEqual(kept.value!.evicted, []);
        assert.deepEqual(
          kept.value!.skipped.map((s) => [s.pod, s.reason]).sort(),
          pods.map((p) => [`${t.ns}/${p}`, 'local-storage']),
        );
        assert.deepEqual(await namesOn(t, node!), pods);

        const gone = await timedDrain(t, '(2 emptyDir pods, flag on)', {
          name: node,
          timeout: 30,
          delete_pods_with_local_storage: true,
        });
        assert.ifError(gone.error);
        assert.deepEqual(
          [...gone.value!.evicted].sort(),
          pods.map((p) => `${t.ns}/${p}`),
        );
        assert.deepEqual(await namesOn(t, node!), []);
      },
    },
    {
      name: 'pod_label_selector + pod_namespace drain the hosting node only; count picks distinct nodes by seed',
      async run(t) {
        const nodes = await scenarioNodes(t, 3);
        await t.deploy('marker', 2, { podSpec: pinnedTo(t, nodes[1]!) });
        const hosting = await timedDrain(t, '(the node hosting app=marker)', {
          label_selector: scenarioSelector(t),
          pod_label_selector: 'app=marker',
          pod_namespace: t.ns,
          timeout: 30,
        });
        assert.ifError(hosting.error);
        assert.deepEqual(hosting.value!.nodes, [nodes[1]]);
        assert.deepEqual(await Promise.all(nodes.map((n) => isCordoned(t, n))), [false, true, false]);

        const first = await timedDrain(t, '(count 2, seed 7, empty nodes)', {
          label_selector: scenarioSelector(t),
          count: 2,
          seed: 7,
        });
        assert.ifError(first.error);
        assert.equal(first.value!.seed, 7);
        assert.equal(first.value!.nodes.length, 2);
        assert.equal(new Set(first.value!.nodes).size, 2, 'no node twice');
        const again = await t.call({
          label_selector: scenarioSelector(t),
          count: 2,
          seed: 7,
        });
        assert.deepEqual(again.nodes, first.value!.nodes);
        const many = await t.call({ label_selector: scenarioSelector(t), count: 10 });
        assert.deepEqual([...many.nodes].sort(), nodes, 'count above the matches: each node once');
        assert.equal(typeof many.seed, 'number');
      },
    },
    {
      name: 'no matching node fails; bad arguments are refused before any request',
      async run(t) {
        await scenarioNodes(t, 1);
        const err = await failure(t, { label_selector: `${scenarioSelector(t)},missing=yes` });
        assert.ok(isChaosError(err, 'ActivityFailed'));
        assert.match(err.message, /no node matching label selector/);
        await t.expectRefused({ label_selector: scenarioSelector(t), bogus: 1 }, 'bogus');
        await t.expectRefused({ name: 5 }, 'name');
        await t.expectRefused({ name: 'Not_A_Node' }, 'name');
        await t.expectRefused({ label_selector: 'a in (b' }, 'label_selector');
        await t.expectRefused({ label_selector: scenarioSelector(t), timeout: -1 }, 'timeout');
        await t.expectRefused({ label_selector: scenarioSelector(t), timeout: '10' }, 'timeout');
        await t.expectRefused({ label_selector: scenarioSelector(t), count: -1 }, 'count');
        await t.expectRefused({ label_selector: scenarioSelector(t), count: 1.5 }, 'count');
        await t.expectRefused(
          { label_selector: scenarioSelector(t), delete_pods_with_local_storage: 'yes' },
          'delete_pods_with_local_storage',
        );
        await t.expectRefused(
          { label_selector: scenarioSelector(t), pod_label_selector: 'app=x' },
          'pod_namespace',
        );
        await t.expectRefused({ label_selector: scenarioSelector(t), seed: -1 }, 'seed');
      },
    },
    drainRunning,
  ],
});
