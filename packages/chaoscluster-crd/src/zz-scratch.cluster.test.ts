import { sharedCluster } from '@chaoskit/cluster/testing';
import { ApiextensionsV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { it } from 'vitest';

const show = async (what: string, p: Promise<unknown>) => {
  try { const r = await p; console.log(what, 'OK', JSON.stringify(r).slice(0, 600)); }
  catch (e) { const x = e as { code?: number; body?: unknown }; console.log(what, 'ERR', x.code, String(x.body).slice(0, 800)); }
};

it('explore', async () => {
  const { kc } = sharedCluster();
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  const co = kc.makeApiClient(CustomObjectsApi);
  const g = 'scratch.chaoskit.test';
  for (const [plural, kind, scope] of [['widgets', 'Widget', 'Namespaced'], ['gadgets', 'Gadget', 'Cluster']] as const) {
    await ext.createCustomResourceDefinition({ body: { metadata: { name: `${plural}.${g}` }, spec: { group: g, scope, names: { plural, kind, singular: kind.toLowerCase(), listKind: `${kind}List` }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }] } } }).catch(() => undefined);
  }
  for (let i = 0; i < 100; i++) {
    const r = await co.getAPIResources({ group: g, version: 'v1' }).catch(() => undefined);
    if (r && r.resources.length >= 2) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await show('discovery', co.getAPIResources({ group: g, version: 'v1' }));
  await show('discovery missing group', co.getAPIResources({ group: 'nope.chaoskit.test', version: 'v1' }));
  await show('discovery missing version', co.getAPIResources({ group: g, version: 'v9' }));
  const w = { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { a: 1, b: 2 } };
  await show('create', co.createNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', body: w }));
  await show('create again', co.createNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', body: w }));
  await show('create missing ns', co.createNamespacedCustomObject({ group: g, version: 'v1', namespace: 'nonexist', plural: 'widgets', body: w }));
  await show('create missing crd', co.createNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'nopes', body: w }));
  await show('create missing group', co.createNamespacedCustomObject({ group: 'nope.x', version: 'v1', namespace: 'default', plural: 'nopes', body: w }));
  await show('create namespaced via cluster', co.createClusterCustomObject({ group: g, version: 'v1', plural: 'widgets', body: w }));
  await show('create cluster via ns', co.createNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'gadgets', body: { ...w, kind: 'Gadget' } }));
  await show('create kind mismatch', co.createNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', body: { ...w, kind: 'Gadget', metadata: { name: 'w2' } } }));
  await show('get missing obj', co.getNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'ghost' }));
  await show('get ns via cluster', co.getClusterCustomObject({ group: g, version: 'v1', plural: 'widgets', name: 'w1' }));
  await show('delete missing crd', co.deleteNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'nopes', name: 'x' }));
  await show('put no rv', co.replaceNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: w }));
  await show('put stale rv', co.replaceNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: { ...w, metadata: { name: 'w1', resourceVersion: '1' } } }));
  await show('put missing', co.replaceNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'ghost', body: { ...w, metadata: { name: 'ghost', resourceVersion: '1' } } }));
  await show('put name mismatch', co.replaceNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: { ...w, metadata: { name: 'other', resourceVersion: '1' } } }));
  const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
  await show('apply other', co.patchNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { a: 5 } }, fieldManager: 'other-team' }, apply));
  await show('apply conflict', co.patchNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { a: 7 } }, fieldManager: 'chaoskit' }, apply));
  await show('apply no name', co.patchNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1', body: { apiVersion: `${g}/v1`, kind: 'Widget', spec: { c: 7 } }, fieldManager: 'chaoskit' }, apply));
  await show('apply missing', co.patchNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'ghost2', body: { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'ghost2' }, spec: { c: 7 } }, fieldManager: 'chaoskit', dryRun: 'All' }, apply));
  await show('delete', co.deleteNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1' }));
  await show('list', co.listNamespacedCustomObject({ group: g, version: 'v1', namespace: 'default', plural: 'widgets', limit: 1 }));
  await show('list cluster missing', co.listClusterCustomObject({ group: g, version: 'v1', plural: 'nopes' }));
  for (const n of ['widgets', 'gadgets']) await ext.deleteCustomResourceDefinition({ name: `${n}.${g}` });
});
