// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster.
import { sharedCluster } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, describe, expect, it, vi } from 'vitest';

const { kc, kubeconfigPath } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
// The namespace the README names; no other test uses it.
const NS = 'storefront';

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell), and a
// Deployment `web` of 2 ready replicas in namespace `storefront`.
const previousKubeconfig = process.env.KUBECONFIG;
process.env.KUBECONFIG = kubeconfigPath;
afterAll(async () => {
  if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = previousKubeconfig;
  await core.deleteNamespace({ name: NS }).catch(() => undefined);
});
await core.createNamespace({ body: { metadata: { name: NS, labels: { 'chaoskit.io/test': 'true' } } } });
await vi.waitFor(
  async () => {
    const accounts = await core.listNamespacedServiceAccount({ namespace: NS });
    expect(accounts.items.map((a) => a.metadata?.name)).toContain('default');
  },
  { timeout: 10_000, interval: 50 },
);
await apps.createNamespacedDeployment({
  namespace: NS,
  body: {
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'example.invalid/web:1' }] },
      },
    },
  },
});
await vi.waitFor(
  async () =>
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: NS })).status?.readyReplicas).toBe(
      2,
    ),
  { timeout: 30_000, interval: 100 },
);

// #region use
import { deploymentFullyAvailable, scaleDeployment } from '@chaoskit/chaoscluster-deployment';

await scaleDeployment({ name: 'web', ns: 'storefront', replicas: 5 });
await deploymentFullyAvailable({ name: 'web', ns: 'storefront', timeout: 60 }); // true once all 5 are ready
// #endregion

describe('the README of @chaoskit/chaoscluster-deployment', () => {
  it('scaled web to 5 replicas and returned once all 5 were ready', async () => {
    // Read right after the wait returned: the readiness it waited for is already there.
    const web = await apps.readNamespacedDeployment({ name: 'web', namespace: NS });
    expect(web.spec?.replicas).toBe(5);
    expect(web.status?.readyReplicas).toBe(5);
    const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: 'app=web' });
    expect(pods.items.filter((p) => p.status?.phase === 'Running')).toHaveLength(5);
  });
});
