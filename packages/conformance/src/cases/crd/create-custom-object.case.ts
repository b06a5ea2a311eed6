import assert from 'node:assert/strict';
import {
  type createClusterCustomObjectActivity,
  createCustomObjectActivity,
} from '@chaoskit/chaoscluster-crd';
import { dump } from 'js-yaml';
import { defineCase, type Scenario } from '../../case.js';
import { planCall } from '../shared-fixtures.js';
import {
  activityFailure,
  fileMaker,
  missingTypes,
  otherScopeArgs,
  refuseBadBodies,
  type ScopeKind,
  scopeOf,
} from './fixtures.js';

/** Both variants, namespaced and cluster-wide: `t.call` resolves to their common result type. */
type CreateActivity = typeof createCustomObjectActivity | typeof createClusterCustomObjectActivity;

/** The scenarios of create_custom_object and create_cluster_custom_object. */
export function createScenarios(kind: ScopeKind): Scenario<CreateActivity>[] {
  const variant = kind === 'namespaced' ? 'create_custom_object' : 'create_cluster_custom_object';
  const otherVariant = kind === 'namespaced' ? 'create_cluster_custom_object' : 'create_custom_object';
  return [
    {
      name: 'creates the object of resource and returns what the server created',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('w1');
        const result = await t.call({
          ...s.args,
          resource: s.doc(name, { size: 3, color: 'red' }),
        });
        assert.equal(result.kind, s.objectKind);
        assert.equal(result.metadata?.name, name);
        assert.ok(result.metadata?.uid, 'the result is the created object, with its uid');
        assert.deepEqual(result.spec, { size: 3, color: 'red' });
        const stored = await s.read(name);
        assert.equal(stored?.metadata?.uid, result.metadata?.uid);
        assert.deepEqual(stored?.spec, { size: 3, color: 'red' });
        if (kind === 'namespaced') assert.equal(stored?.metadata?.namespace, t.ns);
      },
    },
    {
      name: 'creates objects from YAML and JSON files (read as YAML whatever the extension)',
      async run(t) {
        const s = await scopeOf(t, kind);
        const file = await fileMaker(t);
        const yaml = await file('a.yaml', `# a comment\n---\n${dump(s.doc(s.name('a'), { size: 1 }))}`);
        const json = await file('b.json', JSON.stringify(s.doc(s.name('b'), { size: 2 }), null, 2));
        const txt = await file('c.txt', JSON.stringify(s.doc(s.name('c'), { size: 3 })));
        for (const path of [yaml, json, txt]) await t.call({ ...s.args, resource_as_yaml_file: path });
        assert.deepEqual(await s.names(), [s.name('a'), s.name('b'), s.name('c')]);
        assert.deepEqual((await s.read(s.name('b')))?.spec, { size: 2 });
      },
    },
    {
      name: 'an object that already exists is ActivityFailed and is left as it was',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('dup');
        const before = await s.create(s.doc(name, { size: 1 }));
        const message = await activityFailure(t.call({ ...s.args, resource: s.doc(name, { size: 9 }) }));
        assert.match(message, new RegExp(`failed to create custom object '${name}' of ${s.plural}\\.`));
        assert.match(message, /it already exists .*nothing was created/);
        const after = await s.read(name);
        assert.equal(after?.metadata?.resourceVersion, before.metadata?.resourceVersion);
        assert.deepEqual(after?.spec, { size: 1 });
      },
    },
    {
      name: 'a missing custom resource definition is ActivityFailed that says so',
      async run(t) {
        const s = await scopeOf(t, kind);
        for (const { args, what } of missingTypes(s)) {
          const message = await activityFailure(
            t.call({ ...args, resource: { ...s.doc('ghost'), apiVersion: `${args.group}/v1` } }),
          );
          assert.match(message, /the custom resource definition is missing/, `missing ${what}: ${message}`);
          t.log(`missing ${what}: ${message}`);
        }
      },
    },
    {
      name: `a resource of the other scope is ActivityFailed pointing at ${otherVariant}`,
      async run(t) {
        const s = await scopeOf(t, kind);
        const doc = { ...s.doc(s.name('x')), kind: s.other.kind };
        const message = await activityFailure(t.call({ ...otherScopeArgs(s), resource: doc }));
        assert.match(message, new RegExp(`use ${otherVariant}.*not ${variant}`));
        t.log(message);
      },
    },
    {
      name: 'a field the definition does not know is refused by the server (strict field validation)',
      async run(t) {
        const s = await scopeOf(t, kind);
        const doc = s.doc(s.name('strict'), { size: 1, colour: 'red' } as never);
        const message = await activityFailure(t.call({ ...s.args, resource: doc }));
        assert.match(message, /unknown field "spec.colour"/);
        assert.deepEqual(await s.names(), []);
      },
    },
    {
      name: 'in plan mode the create is a server-side dry run: nothing is created',
      async run(t) {
        const s = await scopeOf(t, kind);
        const { result } = await planCall(t, {
          ...s.args,
          resource: s.doc(s.name('plan'), { size: 1 }),
        });
        assert.equal(result.metadata?.name, s.name('plan'));
        assert.deepEqual(await s.names(), []);
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        const s = await scopeOf(t, kind);
        const good = s.doc(s.name('good'), { size: 1 });
        await refuseBadBodies(t, s, s.args, good);
        await t.expectRefused({ ...s.args, resource: { ...good, metadata: {} } }, 'resource');
        await t.expectRefused({ ...s.args, resource: good, version: 'V1' }, 'version');
        assert.deepEqual(await s.names(), []);
      },
    },
  ];
}

export default defineCase({ activity: createCustomObjectActivity, scenarios: createScenarios('namespaced') });
