// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The test below checks what it did.
import { deploy, readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { AppsV1Api } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
const apps = kc.makeApiClient(AppsV1Api);
// The namespace the README names; no other test uses it.
const NS = 'batch-jobs';

// What the example expects: KUBECONFIG pointing at the cluster, and in namespace `batch-jobs`
// a Deployment `web` (2 ready pods) and a Deployment `worker` (3), so that web's 2 pods are a
// small enough share of the namespace for the pod share rail.
await readmeNamespace(NS);
await deploy(kc, NS, 'web', 2);
await deploy(kc, NS, 'worker', 3);
const readyReplicaSets = async () =>
  (await apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: 'app=web' })).items.filter(
    (r) => r.status?.readyReplicas === 2,
  );
await vi.waitFor(async () => expect(await readyReplicaSets()).toHaveLength(1), {
  timeout: 30_000,
  interval: 100,
});
const [before] = await readyReplicaSets();

// #region use
import { deleteReplicaSet } from '@chaoskit/chaoscluster-replicaset';

const { replica_sets } = await deleteReplicaSet({
  name: 'web',
  ns: 'batch-jobs',
  labelSelector: 'app={name}',
});
// replica_sets: the name of web's replica set; the deployment makes a new one
// #endregion

describe('the README of @chaoskit/chaoscluster-replicaset', () => {
  it("deleted web's replica set, and the deployment made a new one", async () => {
    expect(replica_sets).toEqual([before?.metadata?.name]);
    await vi.waitFor(
      async () => {
        const [now] = await readyReplicaSets();
        expect(now?.metadata?.uid).toBeDefined();
        expect(now?.metadata?.uid).not.toBe(before?.metadata?.uid);
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});
