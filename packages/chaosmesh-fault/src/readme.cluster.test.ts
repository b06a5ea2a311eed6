// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster, from a watch on the
// VirtualService opened before it ran.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, CustomObjectsApi, Watch } from '@kubernetes/client-node';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { HttpRoute } from './routes.js';
import type { VirtualService } from './virtual-service.js';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
// The namespace the README names; no other test uses it.
const NS = 'bookinfo';
const REVIEWS = { group: 'networking.istio.io', version: 'v1', namespace: NS, plural: 'virtualservices' };

// The http routes of reviews at each change, in order.
const seen: HttpRoute[][] = [];

// What the example expects. A kubeconfig (KUBECONFIG, as in a reader's shell) whose context
// `staging` is the shared cluster, while its current context, `laptop`, points at no cluster at
// all: the example reaches the cluster only if CLUSTER_CONTEXT in its secrets is honoured.
const kubeconfig = JSON.parse(kc.exportConfig());
const shared = kubeconfig.contexts.find((c: { name: string }) => c.name === kubeconfig['current-context']);
kubeconfig.clusters.push({ name: 'laptop', cluster: { server: 'https://127.0.0.1:9' } });
kubeconfig.contexts = [
  { name: 'staging', context: shared.context },
  { name: 'laptop', context: { ...shared.context, cluster: 'laptop' } },
];
kubeconfig['current-context'] = 'laptop';
const dir = mkdtempSync(join(tmpdir(), 'chaosmesh-readme-'));
writeFileSync(join(dir, 'config'), JSON.stringify(kubeconfig));
const previousKubeconfig = process.env.KUBECONFIG;
process.env.KUBECONFIG = join(dir, 'config');
// … and the VirtualService `reviews` of namespace `bookinfo`, routing to subsets v1 and v2.
let watching: AbortController | undefined;
afterAll(async () => {
  watching?.abort();
  if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = previousKubeconfig;
  rmSync(dir, { recursive: true, force: true });
  await core.deleteNamespace({ name: NS }).catch(() => undefined);
});
await core.createNamespace({ body: { metadata: { name: NS, labels: { 'chaoskit.io/test': 'true' } } } });
const v1Route = { name: 'v1', route: [{ destination: { host: 'reviews', subset: 'v1' } }] };
const v2Route = { name: 'v2', route: [{ destination: { host: 'reviews', subset: 'v2' } }] };
const original = (await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
  ...REVIEWS,
  body: {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'reviews' },
    spec: {
      hosts: ['reviews'],
      http: [{ match: [{ headers: { 'end-user': { exact: 'jason' } } }], ...v2Route }, v1Route],
    },
  },
})) as VirtualService;
watching = await new Watch(kc).watch(
  `/apis/networking.istio.io/v1/namespaces/${NS}/virtualservices`,
  { resourceVersion: original.metadata.resourceVersion },
  (_type, object: VirtualService) => seen.push(object.spec.http ?? []),
  () => undefined,
);

// #region use
import { addDelayFault, getVirtualService, removeDelayFault } from '@chaoskit/chaosmesh-fault';

const target = {
  virtualServiceName: 'reviews',
  ns: 'bookinfo',
  version: 'networking.istio.io/v1' as const,
  routes: [{ destination: { host: 'reviews', subset: 'v2' } }],
  secrets: { CLUSTER_CONTEXT: 'staging' }, // the kubeconfig context to act on
};

const updated = await addDelayFault({ ...target, fixedDelay: '2s', percentage: 25 });
// updated: the VirtualService as stored; its route to v2 has fault.delay { fixedDelay: '2s', percentage: { value: 25 } }
try {
  // … observe the system …
} finally {
  await removeDelayFault(target);
}
const { spec } = await getVirtualService({
  virtualServiceName: 'reviews',
  ns: 'bookinfo',
  secrets: target.secrets,
});
// #endregion

describe('the README of @chaoskit/chaosmesh-fault', () => {
  it('put the delay on the route to reviews v2 only, then removed it', async () => {
    await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 10_000, interval: 50 });
    const [withDelay, restored] = seen as [HttpRoute[], HttpRoute[]];
    const delay = { fixedDelay: '2s', percentage: { value: 25 } };
    expect(withDelay.map((r) => r.fault)).toEqual([{ delay }, undefined]);
    expect(restored).toEqual(original.spec.http);
    expect(updated.spec.http).toEqual(withDelay);
    expect(spec).toEqual(original.spec);
  });
});
