// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster, from a watch on the
// namespace's network policies opened before it ran.
import { readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { NetworkingV1Api, type V1NetworkPolicy, Watch } from '@kubernetes/client-node';
import { afterAll, describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
// The namespace the README names; no other test uses it.
const NS = 'payments';

// Every change to the namespace's network policies, in order.
const events: Array<{ type: string; name: string; spec: V1NetworkPolicy['spec'] }> = [];
const changed = (type: string) => events.filter((e) => e.type === type).map((e) => e.name);

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell), and
// namespace `payments`.
let watching: AbortController | undefined;
afterAll(() => watching?.abort());
await readmeNamespace(NS);
const { metadata } = await kc.makeApiClient(NetworkingV1Api).listNamespacedNetworkPolicy({ namespace: NS });
watching = await new Watch(kc).watch(
  `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`,
  { resourceVersion: metadata?.resourceVersion },
  (type, policy: V1NetworkPolicy) => events.push({ type, name: policy.metadata!.name!, spec: policy.spec }),
  () => undefined,
);

// #region use
import {
  createNetworkPolicy,
  denyAllIngress,
  removeDenyAllIngress,
  removeNetworkPolicy,
} from '@chaoskit/chaoscluster-networking';

const { policy } = await denyAllIngress({ ns: 'payments', labelSelectors: { app: 'web' } });
try {
  // … observe the system: no pod reaches the web pods …
} finally {
  await removeDenyAllIngress({ ns: 'payments' });
}

await createNetworkPolicy({
  ns: 'payments',
  spec: {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'front-only' },
    spec: {
      podSelector: { matchLabels: { app: 'web' } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { role: 'front' } } }] }],
    },
  },
});
await removeNetworkPolicy({ ns: 'payments', name: 'front-only' });
// #endregion

describe('the README of @chaoskit/chaoscluster-networking', () => {
  it('created each policy with the spec the README says, and removed it', async () => {
    await vi.waitFor(() => expect(changed('DELETED')).toEqual([policy, 'front-only']), {
      timeout: 10_000,
      interval: 50,
    });
    expect(policy).toBe('chaostoolkit-deny-all-ingress');
    expect(changed('ADDED')).toEqual([policy, 'front-only']);
    expect(events.find((e) => e.type === 'ADDED' && e.name === policy)?.spec).toEqual({
      podSelector: { matchLabels: { app: 'web' } },
      policyTypes: ['Ingress'],
    });
    expect(events.find((e) => e.type === 'ADDED' && e.name === 'front-only')?.spec).toEqual({
      podSelector: { matchLabels: { app: 'web' } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { role: 'front' } } }] }],
    });
    // The deny-all policy was gone before front-only was created (the finally ran first).
    const order = events.map((e) => `${e.type} ${e.name}`);
    expect(order.indexOf(`DELETED ${policy}`)).toBeLessThan(order.indexOf('ADDED front-only'));
    const left = await kc.makeApiClient(NetworkingV1Api).listNamespacedNetworkPolicy({ namespace: NS });
    expect(left.items).toEqual([]);
  });
});
