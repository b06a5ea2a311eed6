import assert from 'node:assert/strict';
import { type patchClusterCustomObjectActivity, patchCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { dump } from 'js-yaml';
import { defineCase, type Scenario } from '../../case.js';
import {
  activityFailure,
  fileMaker,
  refuseBadBodies,
  type ScopeKind,
  scopeOf,
  specOwners,
} from './fixtures.js';
import {
  bodyOfType,
  missingDefinitionScenario,
  otherScopeBody,
  planLeavesObjectScenario,
  refusalsLeaveObject,
} from './scenarios.js';

/** Both variants, namespaced and cluster-wide: `t.call` resolves to their common result type. */
type PatchActivity = typeof patchCustomObjectActivity | typeof patchClusterCustomObjectActivity;

/** The scenarios of patch_custom_object and patch_cluster_custom_object. */
export function patchScenarios(kind: ScopeKind): Scenario<PatchActivity>[] {
  return [
    {
      name: 'sets the fields resource names as field manager chaoskit; the other fields stay',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('w1');
        await s.create(s.doc(name, { size: 1, color: 'red' }));
        const result = await t.call({
          ...s.args,
          name,
          resource: s.doc(name, { mode: 'fast' }),
        });
        assert.deepEqual(result.spec, { size: 1, color: 'red', mode: 'fast' });
        const stored = await s.read(name);
        assert.deepEqual(stored?.spec, { size: 1, color: 'red', mode: 'fast' });
        assert.deepEqual(specOwners(stored!).chaoskit, ['mode']);
        const entries = (stored?.metadata?.managedFields ?? []) as Array<{
          manager: string;
          operation: string;
        }>;
        const entry = entries.find((e) => e.manager === 'chaoskit');
        assert.equal(entry?.operation, 'Apply');
      },
    },
    {
      name: 'a field owned by another field manager: without force, a conflict naming field and manager; nothing changed',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('owned');
        await s.apply('other-team', s.doc(name, { size: 1, color: 'red' }));
        const message = await activityFailure(
          t.call({ ...s.args, name, resource: s.doc(name, { color: 'blue', mode: 'fast' }) }),
        );
        assert.match(
          message,
          /conflict with other field managers: \.spec\.color owned by field manager "other-team"/,
        );
        assert.match(message, /nothing was changed \(set force: true/);
        const stored = await s.read(name);
        assert.deepEqual(stored?.spec, { size: 1, color: 'red' });
        assert.deepEqual(specOwners(stored!), { 'other-team': ['color', 'size'] });
      },
    },
    {
      name: 'a field owned by another field manager: with force, chaoskit re-acquires it',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('taken');
        await s.apply('other-team', s.doc(name, { size: 1, color: 'red' }));
        const result = await t.call({
          ...s.args,
          name,
          force: true,
          resource: s.doc(name, { color: 'blue' }),
        });
        assert.deepEqual(result.spec, { size: 1, color: 'blue' });
        const stored = await s.read(name);
        assert.deepEqual(stored?.spec, { size: 1, color: 'blue' });
        assert.deepEqual(specOwners(stored!), { chaoskit: ['color'], 'other-team': ['size'] });
      },
    },
    {
      name: 'from a YAML file without metadata.name: the name argument names the object',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('filed');
        await s.create(s.doc(name, { size: 1 }));
        const doc = s.doc(name, { mode: 'fast' });
        delete doc.metadata!.name;
        const file = await fileMaker(t);
        await t.call({ ...s.args, name, resource_as_yaml_file: await file('patch.yml', dump(doc)) });
        assert.deepEqual((await s.read(name))?.spec, { size: 1, mode: 'fast' });
      },
    },
    {
      name: 'a missing object is ActivityFailed, and the apply does not create it',
      async run(t) {
        const s = await scopeOf(t, kind);
        const name = s.name('ghost');
        const message = await activityFailure(
          t.call({ ...s.args, name, resource: s.doc(name, { size: 1 }) }),
        );
        assert.match(message, new RegExp(`failed to patch custom object '${name}' .*: it does not exist`));
        assert.equal(await s.read(name), undefined);
      },
    },
    missingDefinitionScenario(
      'patch',
      kind,
      (s, args) => [{ ...args, name: 'x', resource: bodyOfType(s, args) }],
      otherScopeBody,
    ),
    planLeavesObjectScenario('apply', kind),
    {
      name: 'bad arguments are refused before any request',
      run: (t) =>
        refusalsLeaveObject(t, kind, async (s, name, good) => {
          await refuseBadBodies(t, s, { ...s.args, name }, good);
          await t.expectRefused({ ...s.args, resource: good }, 'name');
          await t.expectRefused({ ...s.args, name: s.name('other'), resource: good }, 'resource');
          await t.expectRefused({ ...s.args, name, resource: good, force: 'yes' }, 'force');
        }),
    },
  ];
}

export default defineCase({ activity: patchCustomObjectActivity, scenarios: patchScenarios('namespaced') });
