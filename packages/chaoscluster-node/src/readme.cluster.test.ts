// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster.
//
// It must not touch the shared cluster's nodes (other files run on them at the same time): the
// pool `pool=web` is two kwok nodes of its own, tainted so that only this file's pods land there.
import { deploy, readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
const NS = 'web-pool';
const TAINT = 'chaoskit.io/readme-web-pool';
const POOL = ['readme-web-0', 'readme-web-1'];

const podsOn = async (node: string): Promise<V1Pod[]> =>
  (await core.listNamespacedPod({ namespace: NS, fieldSelector: `spec.nodeName=${node}` })).items;
const runningOn = async (node: string): Promise<string[]> =>
  (await podsOn(node))
    .filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata!.name!);

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell), and
// nodes labelled pool=web, each running a pod of a Deployment (a drain evicts only pods that a
// controller will replace).
afterAll(async () => {
  for (const name of POOL) await core.deleteNode({ name }).catch(() => undefined);
});
for (const name of POOL) {
  await core.createNode({
    body: {
      metadata: {
        name,
        labels: { pool: 'web', 'kubernetes.io/hostname': name, type: 'kwok' },
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
      },
      spec: { taints: [{ key: TAINT, value: 'true', effect: 'NoSchedule' }] },
    },
  });
}
await readmeNamespace(NS);
for (const node of POOL) {
  await deploy(kc, NS, node, 1, {
    podSpec: {
      nodeSelector: { 'kubernetes.io/hostname': node },
      tolerations: [{ key: TAINT, operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
    },
  });
}
const before = Object.fromEntries(await Promise.all(POOL.map(async (n) => [n, await runningOn(n)] as const)));

// #region use
import { drainNodes, uncordonNode } from '@chaoskit/chaoscluster-node';

const { nodes, evicted } = await drainNodes({ labelSelector: 'pool=web', count: 1, timeout: 120 });
// nodes: the node drained, picked at random; evicted: ['namespace/pod', …], gone when it returns
await uncordonNode({ labelSelector: 'pool=web' });
// #endregion

describe('the README of @chaoskit/chaoscluster-node', () => {
  it('drained one node of the pool: its pod was evicted and is gone, the other node was left alone', async () => {
    expect(nodes).toHaveLength(1);
    const drained = nodes[0]!;
    expect(POOL).toContain(drained);
    const other = POOL.find((n) => n !== drained)!;
    expect(evicted).toEqual(before[drained]!.map((pod) => `${NS}/${pod}`));
    const names = (await core.listNamespacedPod({ namespace: NS })).items.map((p) => p.metadata!.name!);
    for (const pod of before[drained]!) expect(names).not.toContain(pod);
    expect(await runningOn(other)).toEqual(before[other]);
  });

  it('uncordoned the pool: both nodes are schedulable, and the Deployment put a new pod on the drained one', async () => {
    for (const name of POOL) expect((await core.readNode({ name })).spec?.unschedulable).toBeFalsy();
    const drained = nodes[0]!;
    await vi.waitFor(
      async () => {
        const now = await runningOn(drained);
        expect(now).toHaveLength(1);
        expect(before[drained]).not.toContain(now[0]);
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});
