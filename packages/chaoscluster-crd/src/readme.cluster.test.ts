// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster, from a watch on the
// namespace's PodChaos objects opened before it ran.
import { customResourceDefinition } from '@chaoskit/cluster';
import { readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { ApiextensionsV1Api, CustomObjectsApi, Watch } from '@kubernetes/client-node';
import { afterAll, describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
const extensions = kc.makeApiClient(ApiextensionsV1Api);
// The namespace the README names; no other test uses it, nor the chaos-mesh.org group.
const NS = 'chaos-testing';
const CRD = 'podchaos.chaos-mesh.org';

type PodChaos = { metadata: { name: string }; spec: Record<string, unknown> };
const events: Array<{ type: string; name: string; spec: unknown }> = [];

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell),
// namespace `chaos-testing`, and a definition of Chaos Mesh's PodChaos (the part of its schema that
// the example uses; the server validates strictly against it).
let watching: AbortController | undefined;
afterAll(async () => {
  watching?.abort();
  await extensions.deleteCustomResourceDefinition({ name: CRD }).catch(() => undefined);
});
await readmeNamespace(NS);
await extensions.createCustomResourceDefinition({
  body: customResourceDefinition({
    group: 'chaos-mesh.org',
    version: 'v1alpha1',
    scope: 'Namespaced',
    plural: 'podchaos',
    kind: 'PodChaos',
    spec: {
      action: { type: 'string', _enum: ['pod-kill', 'pod-failure', 'container-kill'] },
      mode: {
        type: 'string',
        _enum: ['one', 'all', 'fixed', 'fixed-percent', 'random-max-percent'],
      },
      duration: { type: 'string' },
      selector: {
        type: 'object',
        properties: {
          namespaces: { type: 'array', items: { type: 'string' } },
          labelSelectors: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  }),
});
await vi.waitFor(
  async () => {
    const served = await kc
      .makeApiClient(CustomObjectsApi)
      .getAPIResources({ group: 'chaos-mesh.org', version: 'v1alpha1' });
    expect(served.resources.map((r) => r.name)).toContain('podchaos');
  },
  { timeout: 30_000, interval: 100 },
);
// The watch cache of a new resource answers 429 for a moment: open the watch once it is ready.
watching = await vi.waitFor(
  async () => {
    let refused: unknown;
    const controller = await new Watch(kc).watch(
      `/apis/chaos-mesh.org/v1alpha1/namespaces/${NS}/podchaos`,
      {},
      (type, object: PodChaos) => events.push({ type, name: object.metadata.name, spec: object.spec }),
      (err) => {
        refused ??= err;
      },
    );
    if (refused) throw refused;
    return controller;
  },
  { timeout: 30_000, interval: 100 },
);

// #region use
import { createCustomObject, deleteCustomObject, listCustomObjects } from '@chaoskit/chaoscluster-crd';

const where = { group: 'chaos-mesh.org', version: 'v1alpha1', plural: 'podchaos', ns: 'chaos-testing' };
const created = await createCustomObject({
  ...where,
  resource: {
    apiVersion: 'chaos-mesh.org/v1alpha1',
    kind: 'PodChaos',
    metadata: { name: 'pod-failure' },
    spec: { action: 'pod-failure', mode: 'one', selector: { labelSelectors: { app: 'web' } } },
  },
});
const { items } = await listCustomObjects(where); // every PodChaos of the namespace
await deleteCustomObject({ ...where, name: created.metadata?.name ?? 'pod-failure' });
// #endregion

describe('the README of @chaoskit/chaoscluster-crd', () => {
  it('created the PodChaos as given, listed it, and deleted it', async () => {
    await vi.waitFor(
      () =>
        expect(events.map((e) => `${e.type} ${e.name}`)).toEqual([
          'ADDED pod-failure',
          'DELETED pod-failure',
        ]),
      { timeout: 10_000, interval: 50 },
    );
    expect(events[0]!.spec).toEqual({
      action: 'pod-failure',
      mode: 'one',
      selector: { labelSelectors: { app: 'web' } },
    });
    expect(created.metadata?.namespace).toBe(NS);
    expect(items.map((o) => o.metadata?.name)).toEqual(['pod-failure']);
    const left = await kc.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({
      group: 'chaos-mesh.org',
      version: 'v1alpha1',
      namespace: NS,
      plural: 'podchaos',
    });
    expect(left.items).toEqual([]);
  });
});
