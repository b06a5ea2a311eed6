import assert from 'node:assert/strict';
import { type CustomObjectList, listCustomObjectsActivity } from '@chaoskit/chaoscluster-crd';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { defineCase } from '../../case.js';
import { activityFailure, missingTypes, scopeOf, VERSION } from './fixtures.js';

const names = (list: CustomObjectList) => list.items.map((o) => o.metadata!.name!).sort();

export default defineCase({
  activity: listCustomObjectsActivity,
  scenarios: [
    {
      name: 'returns the whole list object of the namespace, and only of that namespace',
      async run(t) {
        const s = await scopeOf(t, 'namespaced');
        await s.create(s.doc('a', { size: 1 }));
        await s.create(s.doc('b', { size: 2 }));
        // The same resource in another namespace is not listed.
        const api = t.kc.makeApiClient(CustomObjectsApi);
        await api.createNamespacedCustomObject({
          group: s.group,
          version: VERSION,
          plural: s.plural,
          namespace: t.home,
          body: s.doc(`elsewhere-${t.ns}`),
        });
        const list = await t.call(s.args);
        assert.equal(list.apiVersion, `${s.group}/${VERSION}`);
        assert.equal(list.kind, 'WidgetList');
        assert.ok(list.metadata?.resourceVersion);
        assert.equal(list.metadata?.continue, undefined);
        assert.deepEqual(names(list), ['a', 'b']);
        assert.deepEqual(list.items.find((o) => o.metadata?.name === 'b')?.spec, {
          size: 2,
        });
      },
    },
    {
      name: 'an empty namespace gives a list object with no items',
      async run(t) {
        const s = await scopeOf(t, 'namespaced');
        const list = await t.call(s.args);
        assert.equal(list.kind, 'WidgetList');
        assert.deepEqual(list.items, []);
      },
    },
    {
      name: 'a missing custom resource definition is ActivityFailed that says so',
      async run(t) {
        const s = await scopeOf(t, 'namespaced');
        for (const { args } of missingTypes(s)) {
          assert.match(await activityFailure(t.call(args)), /the custom resource definition is missing/);
        }
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        const s = await scopeOf(t, 'namespaced');
        await t.expectRefused({ ...s.args, plural: undefined }, 'plural');
        await t.expectRefused({ ...s.args, group: 'ex ample.com' }, 'group');
        await t.expectRefused({ ...s.args, ns: 'No' }, 'ns');
        await t.expectRefused({ ...s.args, label_selector: 'a=b' }, 'label_selector');
      },
    },
  ],
});
