import assert from 'node:assert/strict';
import {
  type replaceClusterCustomObjectActivity,
  replaceCustomObjectActivity,
} from '@chaoskit/chaoscluster-crd';
import { defineCase, type Scenario } from '../../case.js';
import {
  activityFailure,
  fileMaker,
  refuseBadBodies,
  type Scope,
  type ScopeKind,
  scopeOf,
} from './fixtures.js';
import {
  bodyOfType,
  missingDefinitionScenario,
  otherScopeBody,
  planLeavesObjectScenario,
  refusalsLeaveObject,
} from './scenarios.js';

/** An object whose first resourceVersion is stale: another writer changed it since. */
async function changedSince(s: Scope, name: string): Promise<string> {
  const first = await s.create(s.doc(name, { size: 1, color: 'red' }));
  await s.apply('other-team', s.doc(name, { size: 2 }), true);
  return first.metadata!.resourceVersion!;
}

/** Both variants, namespaced and cluster-wide: `t.call` resolves to their common result type. */
type ReplaceActivity = typeof replaceCustomObjectActivity | typeof replaceClusterCustomObjectActivity;

/** The scenarios of replace_custom_object and replace_cluster_custom_object. */
export function replaceScenarios(kind: ScopeKind): Scenario<ReplaceActivity>[] {
  return [
    {
      name: 'replaces the whole object at the resourceVersion it names',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('w1');
        const created = await s.create(s.doc(name, { size: 1, color: 'red' }, { labels: { old: 'yes' } }));
        const resource = s.doc(
          name,
          { mode: 'slow' },
          { resourceVersion: created.metadata!.resourceVersion },
        );
        const result = await t.call({ ...s.args, name, resource });
        assert.deepEqual(result.spec, { mode: 'slow' });
        assert.notEqual(result.metadata?.resourceVersion, created.metadata?.resourceVersion);
        const stored = await s.read(name);
        assert.deepEqual(stored?.spec, { mode: 'slow' });
        assert.equal(stored?.metadata?.labels, undefined);
        assert.equal(stored?.metadata?.uid, created.metadata?.uid);
      },
    },
    {
      name: 'a stale resourceVersion without force: ActivityFailed, nothing replaced',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('stale');
        const stale = await changedSince(s, name);
        const before = await s.read(name);
        const message = await activityFailure(
          t.call({ ...s.args, name, resource: s.doc(name, { mode: 'x' }, { resourceVersion: stale }) }),
        );
        assert.match(message, new RegExp(`it changed since resourceVersion '${stale}'`));
        assert.match(message, /nothing was replaced \(read it again, or set force: true/);
        const after = await s.read(name);
        assert.equal(after?.metadata?.resourceVersion, before?.metadata?.resourceVersion);
        assert.deepEqual(after?.spec, { size: 2, color: 'red' });
      },
    },
    {
      name: 'a stale resourceVersion with force: the current version is replaced',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('forced');
        const stale = await changedSince(s, name);
        const result = await t.call({
          ...s.args,
          name,
          force: true,
          resource: s.doc(name, { mode: 'x' }, { resourceVersion: stale }),
        });
        assert.deepEqual(result.spec, { mode: 'x' });
        assert.deepEqual((await s.read(name))?.spec, { mode: 'x' });
      },
    },
    {
      name: 'with force, a file without resourceVersion (nor name) replaces the current version',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('filed');
        await s.create(s.doc(name, { size: 1 }));
        const doc = s.doc(name, { size: 7 });
        delete doc.metadata!.name;
        const file = await fileMaker(t);
        const path = await file('replace.json', JSON.stringify(doc));
        await t.call({ ...s.args, name, force: true, resource_as_yaml_file: path });
        assert.deepEqual((await s.read(name))?.spec, { size: 7 });
      },
    },
    {
      name: 'a missing object is ActivityFailed with and without force; nothing is created',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('ghost');
        for (const args of [
          { resource: s.doc(name, { size: 1 }, { resourceVersion: '1' }) },
          { resource: s.doc(name, { size: 1 }), force: true },
        ]) {
          const message = await activityFailure(t.call({ ...s.args, name, ...args }));
          assert.match(
            message,
            new RegExp(`failed to replace custom object '${name}' .*: it does not exist`),
          );
        }
        assert.equal(await s.read(name), undefined);
      },
    },
    missingDefinitionScenario(
      'replace',
      kind,
      // At a resourceVersion, and forced.
      (s, args) =>
        [false, true].map((force) => {
          const resource = bodyOfType(s, args);
          const given = force ? resource : { ...resource, metadata: { name: 'x', resourceVersion: '1' } };
          return { ...args, name: 'x', force, resource: given };
        }),
      (s) => ({ force: true, ...otherScopeBody(s) }),
    ),
    planLeavesObjectScenario('replace', kind),
    {
      name: 'bad arguments are refused before any request; without force a resourceVersion is required',
      run: (t) =>
        refusalsLeaveObject(t, kind, async (s, name, good) => {
          await t.expectRefused({ ...s.args, name, resource: good }, 'force');
          await refuseBadBodies(t, s, { ...s.args, name, force: true }, good);
          await t.expectRefused(
            { ...s.args, name: s.name('other'), force: true, resource: good },
            'resource',
          );
          await t.expectRefused({ ...s.args, name, resource: good, force: 1 }, 'force');
          await t.expectRefused({ ...s.args, force: true, resource: good }, 'name');
        }),
    },
  ];
}

export default defineCase({
  activity: replaceCustomObjectActivity,
  scenarios: replaceScenarios('namespaced'),
});
