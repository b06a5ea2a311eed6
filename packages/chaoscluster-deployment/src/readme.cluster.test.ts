// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster.
import { deploy, readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
// The namespace the README names; no other test uses it.
const NS = 'storefront';

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell), and a
// Deployment `web` of 2 ready replicas in namespace `storefront`.
await readmeNamespace(NS);
await deploy(kc, NS, 'web', 2);

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
