// drain_nodes lists its nodes again once the pods it evicted are gone, and drains what landed on
// them after the cordon (a scheduler whose view of the node lagged, a controller that names the
// node), so that a drained node is empty.
//
// The test makes the lag certain: the first pod carries a finalizer, so the drain is still
// waiting for it when the test puts a second pod on the node by name (past the scheduler and its
// cordon); only then is the finalizer lifted. On a kwok node of its own, tainted so that only this
// file's pods land there.
import { adminSecrets, fileNamespace, ownKwokNode, sharedCluster, until } from '@chaoskit/cluster/testing';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { drainNodes } from './drain-nodes.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const NODE = `landed-drain-${process.pid}`;
const HOLD = 'chaoskit.io/test-hold';
const own = ownKwokNode(cluster.kc, NODE, 'chaoskit.io/landed-drain');
const ns = fileNamespace(cluster.kc, 'landed-drain');

/** A pod on the node by name, managed (its controller a ConfigMap, so nothing re-creates it). */
async function podOnNode(name: string, owner: { uid: string }, finalizers: string[] = []): Promise<void> {
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: {
        name,
        finalizers,
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.uid, controller: true },
        ],
      },
      spec: {
        // kwok removes a deleted pod at its deletionTimestamp (finalizers and all): the held pod
        // keeps the default 30 s, the test's window; the late one goes at once.
        terminationGracePeriodSeconds: finalizers.length > 0 ? 30 : 0,
        nodeName: NODE,
        tolerations: [own.toleration],
        containers: [{ name: 'c', image: 'example.invalid/none' }],
      },
    },
  });
}

describe('drain_nodes and a pod that lands on the node after its cordon', () => {
  it('drains it too: the node ends empty and the result names both pods', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'owner' } },
    });
    const ref = { uid: owner.metadata!.uid! };
    await podOnNode('first', ref, [HOLD]);
    const draining = drainNodes({ name: NODE, timeout: 60, secrets: adminSecrets() });
    // The drain has listed, planned and evicted: 'first' is terminating, held by its finalizer.
    await until('the first pod to be evicted', async () =>
      (await core.readNamespacedPod({ name: 'first', namespace: ns.name })).metadata?.deletionTimestamp
        ? true
        : undefined,
    );
    expect((await core.readNode({ name: NODE })).spec?.unschedulable).toBe(true);
    await podOnNode('late', ref);
    await core.patchNamespacedPod(
      { name: 'first', namespace: ns.name, body: { metadata: { finalizers: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const result = await draining;
    expect(result.evicted.sort()).toEqual([`${ns.name}/first`, `${ns.name}/late`]);
    const left = (
      await core.listNamespacedPod({ namespace: ns.name, fieldSelector: `spec.nodeName=${NODE}` })
    ).items;
    expect(left.filter((p: V1Pod) => !p.metadata?.deletionTimestamp).map((p) => p.metadata?.name)).toEqual(
      [],
    );
  }, 120_000);
});
