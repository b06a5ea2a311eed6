// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The test below checks what it did.
import { readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
// The namespace the README names; no other test uses it.
const NS = 'ledger';

// What the example expects: KUBECONFIG pointing at the cluster, and a StatefulSet `db` of 1
// ready replica in namespace `ledger`.
await readmeNamespace(NS);
await apps.createNamespacedStatefulSet({
  namespace: NS,
  body: {
    metadata: { name: 'db', labels: { app: 'db' } },
    spec: {
      replicas: 1,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'db', image: 'example.invalid/db:1' }] },
      },
    },
  },
});
await vi.waitFor(
  async () =>
    expect((await apps.readNamespacedStatefulSet({ name: 'db', namespace: NS })).status?.readyReplicas).toBe(
      1,
    ),
  { timeout: 30_000, interval: 100 },
);

// #region use
import { scaleStatefulset, statefulsetFullyAvailable } from '@chaoskit/chaoscluster-statefulset';

await scaleStatefulset({ name: 'db', ns: 'ledger', replicas: 3 });
await statefulsetFullyAvailable({ name: 'db', ns: 'ledger', timeout: 60 }); // true once all 3 are ready
// #endregion

describe('the README of @chaoskit/chaoscluster-statefulset', () => {
  it('scaled db to 3 replicas and returned once all 3 were ready', async () => {
    const db = await apps.readNamespacedStatefulSet({ name: 'db', namespace: NS });
    expect(db.spec?.replicas).toBe(3);
    expect(db.status?.readyReplicas).toBe(3);
    const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: 'app=db' });
    expect(pods.items.map((p) => p.metadata?.name).sort()).toEqual(['db-0', 'db-1', 'db-2']);
  });
});
