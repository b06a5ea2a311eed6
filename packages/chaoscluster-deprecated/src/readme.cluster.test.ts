// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster.
import { deploy, readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
// The namespace the README names; no other test uses it.
const NS = 'legacy-shop';

const names = (list: { items: Array<{ metadata?: { name?: string } }> }) =>
  list.items.map((o) => o.metadata!.name!).sort();
const podNames = async () => names(await core.listNamespacedPod({ namespace: NS }));
const replicaSetNames = async () => names(await apps.listNamespacedReplicaSet({ namespace: NS }));

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell), and a
// microservice `web` in namespace `legacy-shop` as 0.25.1's helpers find it: a Deployment and its
// pods labelled name=web.
await readmeNamespace(NS);
await deploy(kc, NS, 'web', 2, { labels: { name: 'web' } });
const before = { pods: await podNames(), replicaSets: await replicaSetNames() };

// #region use
import { killMicroservice, microserviceAvailableAndHealthy } from '@chaoskit/chaoscluster-deprecated';

const healthy = await microserviceAvailableAndHealthy({ name: 'web', ns: 'legacy-shop' }); // true
// Every pod of the namespace goes: more than the 80 % an action may remove unless allowed.
const { deployments, replica_sets, pods } = await killMicroservice({
  name: 'web',
  ns: 'legacy-shop',
  safety: { maxPodShare: 1 },
});
// what was deleted: the deployments, replica sets and pods labelled name=web
// #endregion

describe('the README of @chaoskit/chaoscluster-deprecated', () => {
  it('found web healthy, then deleted its deployment, replica set and pods, and nothing came back', async () => {
    expect(healthy).toBe(true);
    expect(before.pods).toHaveLength(2);
    expect(before.replicaSets).toHaveLength(1);
    expect(deployments).toEqual(['web']);
    // The garbage collector may delete the replica set and the pods first: what the action
    // deleted is some of what was there, and in the end nothing is left.
    for (const rs of replica_sets) expect(before.replicaSets).toContain(rs);
    for (const pod of pods) expect(before.pods).toContain(pod);
    await vi.waitFor(
      async () => {
        expect((await apps.listNamespacedDeployment({ namespace: NS })).items).toEqual([]);
        expect(await replicaSetNames()).toEqual([]);
        expect(await podNames()).toEqual([]);
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});
