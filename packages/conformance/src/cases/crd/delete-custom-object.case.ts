import assert from 'node:assert/strict';
import {
  type CustomObject,
  type deleteClusterCustomObjectActivity,
  deleteCustomObjectActivity,
  type Status,
} from '@chaoskit/chaoscluster-crd';
import { defineCase, type Scenario } from '../../case.js';
import { planCall } from '../shared-fixtures.js';
import { type ScopeKind, scopeOf } from './fixtures.js';
import { missingDefinitionScenario, missingObjectScenario } from './scenarios.js';

/** Both variants, namespaced and cluster-wide: `t.call` resolves to their common result type. */
type DeleteActivity = typeof deleteCustomObjectActivity | typeof deleteClusterCustomObjectActivity;

/** The scenarios of delete_custom_object and delete_cluster_custom_object. */
export function deleteScenarios(kind: ScopeKind): Scenario<DeleteActivity>[] {
  return [
    {
      name: 'deletes the object, only that one, and returns the Status of the server',
      async run(t) {
        const s = await scopeOf(t, kind);
        const doomed = await s.create(s.doc(s.name('doomed')));
        await s.create(s.doc(s.name('kept')));
        // The result is a Status or the object (held by finalizers): this scenario's is a Status.
        const result = (await t.call({ ...s.args, name: s.name('doomed') })) as Status;
        assert.equal(result.kind, 'Status');
        assert.equal(result.status, 'Success');
        assert.equal(result.details?.name, s.name('doomed'));
        assert.equal(result.details?.uid, doomed.metadata?.uid);
        assert.deepEqual(await s.names(), [s.name('kept')]);
      },
    },
    {
      name: 'an object held by a finalizer: the result is the object, marked for deletion',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('held');
        await s.create(s.doc(name, {}, { finalizers: ['chaoskit.io/hold'] }));
        t.onCleanup(() => s.unfinalize(name));
        const result = (await t.call({ ...s.args, name })) as CustomObject;
        assert.ok(result.metadata?.deletionTimestamp, 'the object is returned with its deletionTimestamp');
        assert.ok((await s.read(name))?.metadata?.deletionTimestamp);
      },
    },
    missingObjectScenario('delete', kind),
    missingDefinitionScenario('delete', kind),
    {
      name: 'in plan mode the delete is a server-side dry run: the object stays',
      async run(t) {
        const s = await scopeOf(t, kind);
        await s.create(s.doc(s.name('stays')));
        await planCall(t, { ...s.args, name: s.name('stays') });
        assert.deepEqual(await s.names(), [s.name('stays')]);
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        const s = await scopeOf(t, kind);
        await s.create(s.doc(s.name('keep')));
        const name = s.name('keep');
        await t.expectRefused({ ...s.args }, 'name');
        await t.expectRefused({ ...s.args, name: 'Not_A_Name' }, 'name');
        await t.expectRefused({ ...s.args, name: 7 }, 'name');
        await t.expectRefused({ ...s.args, name, group: undefined }, 'group');
        await t.expectRefused({ ...s.args, name, plural: 'Widgets' }, 'plural');
        await t.expectRefused({ ...s.args, name, names: [name] }, 'names');
        if (kind === 'cluster') await t.expectRefused({ ...s.args, name, ns: t.ns }, 'ns');
        else await t.expectRefused({ ...s.args, name, ns: '' }, 'ns');
        assert.deepEqual(await s.names(), [name]);
      },
    },
  ];
}

export default defineCase({ activity: deleteCustomObjectActivity, scenarios: deleteScenarios('namespaced') });
