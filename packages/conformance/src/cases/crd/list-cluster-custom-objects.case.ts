import assert from 'node:assert/strict';
import { type CustomObjectList, listClusterCustomObjectsActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase } from '../../case.js';
import { activityFailure, missingTypes, scopeOf, VERSION } from './fixtures.js';

const names = (list: CustomObjectList) => list.items.map((o) => o.metadata!.name!).sort();

export default defineCase({
  activity: listClusterCustomObjectsActivity,
  scenarios: [
    {
      name: 'returns the whole list object of a cluster-scoped resource',
      async run(t) {
        const s = await scopeOf(t, 'cluster');
        await s.create(s.doc(s.name('a'), { size: 1 }));
        await s.create(s.doc(s.name('b'), { size: 2 }));
        const list = await t.call(s.args);
        assert.equal(list.apiVersion, `${s.group}/${VERSION}`);
        assert.equal(list.kind, 'GadgetList');
        assert.ok(list.metadata?.resourceVersion);
        assert.deepEqual(
          names(list).filter((n) => n.endsWith(`-${t.ns}`)),
          [s.name('a'), s.name('b')],
        );
      },
    },
    {
      name: 'a namespaced resource is listed across every namespace',
      async run(t) {
        const s = await scopeOf(t, 'namespaced');
        await s.create(s.doc('here'));
        const list = await t.call({ group: s.group, version: VERSION, plural: s.plural });
        assert.equal(list.kind, 'WidgetList');
        const here = list.items.filter((o) => o.metadata?.namespace === t.ns);
        assert.deepEqual(
          here.map((o) => o.metadata?.name),
          ['here'],
        );
      },
    },
    {
      name: 'a missing custom resource definition is ActivityFailed that says so',
      async run(t) {
        const s = await scopeOf(t, 'cluster');
        for (const { args } of missingTypes(s)) {
          assert.match(await activityFailure(t.call(args)), /the custom resource definition is missing/);
        }
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        const s = await scopeOf(t, 'cluster');
        await t.expectRefused({ ...s.args, ns: t.ns }, 'ns');
        await t.expectRefused({ ...s.args, version: '' }, 'version');
        await t.expectRefused({ group: s.group, version: VERSION }, 'plural');
      },
    },
  ],
});
