import assert from 'node:assert/strict';
import { scaleStatefulsetActivity } from '@chaoskit/chaoscluster-statefulset';
import { defineCase } from '../../case.js';
import { expectScaleRefusals } from '../shared-fixtures.js';
import { activityFailure, readyStatefulSet, replicasOf } from './fixtures.js';

export default defineCase({
  activity: scaleStatefulsetActivity,
  scenarios: [
    {
      name: 'scales up: spec.replicas changes and the new pods come up',
      async run(t) {
        await readyStatefulSet(t, 'db', 1);
        assert.deepEqual(await t.call({ name: 'db', replicas: 3, ns: t.ns }), { name: 'db', replicas: 3 });
        assert.equal((await replicasOf(t, 'db')).desired, 3);
        await t.until('3 db pods ready', async () => (await replicasOf(t, 'db')).ready === 3);
        assert.deepEqual(await t.podNames('app=db'), ['db-0', 'db-1', 'db-2']);
      },
    },
    {
      name: 'scales down to 0: every pod goes; the rest of the spec is untouched',
      async run(t) {
        await readyStatefulSet(t, 'db', 2, { tier: 'data' });
        assert.deepEqual(await t.call({ name: 'db', replicas: 0, ns: t.ns }), { name: 'db', replicas: 0 });
        const s = await t.apps.readNamespacedStatefulSet({ name: 'db', namespace: t.ns });
        assert.equal(s.spec?.replicas, 0);
        assert.deepEqual(s.spec?.template.metadata?.labels, { app: 'db', tier: 'data' });
        await t.until('no db pod left', async () => (await t.podNames('app=db', true)).length === 0);
      },
    },
    {
      name: 'a missing stateful set is ActivityFailed naming it',
      async run(t) {
        const message = await activityFailure(t.call({ name: 'ghost', replicas: 2, ns: t.ns }));
        assert.equal(
          message,
          `failed to scale 'ghost' to 2 replicas: there is no stateful set 'ghost' in namespace '${t.ns}'`,
        );
      },
    },
    {
      name: 'negative, fractional or textual replicas and bad names are refused before any request',
      async run(t) {
        await readyStatefulSet(t, 'keep', 1);
        await expectScaleRefusals(t, 'keep');
        assert.equal((await replicasOf(t, 'keep')).desired, 1);
      },
    },
  ],
});
