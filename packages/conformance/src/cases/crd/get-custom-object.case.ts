import assert from 'node:assert/strict';
import { type getClusterCustomObjectActivity, getCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase, type Scenario } from '../../case.js';
import { type ScopeKind, scopeOf } from './fixtures.js';
import { missingDefinitionScenario, missingObjectScenario } from './scenarios.js';

/** Both variants, namespaced and cluster-wide: `t.call` resolves to their common result type. */
type GetActivity = typeof getCustomObjectActivity | typeof getClusterCustomObjectActivity;

/** The scenarios of get_custom_object and get_cluster_custom_object. */
export function getScenarios(kind: ScopeKind): Scenario<GetActivity>[] {
  return [
    {
      name: 'returns the object as the server has it',
      async run(t) {
        const s = await scopeOf(t, kind);
        const created = await s.create(
          s.doc(s.name('w1'), { size: 2, mode: 'slow' }, { labels: { a: 'b' } }),
        );
        const result = await t.call({ ...s.args, name: s.name('w1') });
        assert.deepEqual(result, created);
      },
    },
    missingObjectScenario('get', kind),
    missingDefinitionScenario('get', kind),
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        const s = await scopeOf(t, kind);
        await t.expectRefused({ ...s.args }, 'name');
        await t.expectRefused({ ...s.args, name: 'a/b' }, 'name');
        await t.expectRefused({ ...s.args, name: 'x', version: 1 }, 'version');
        await t.expectRefused({ ...s.args, name: 'x', nmae: 'x' }, 'nmae');
      },
    },
  ];
}

export default defineCase({ activity: getCustomObjectActivity, scenarios: getScenarios('namespaced') });
