import assert from 'node:assert/strict';
import { scaleDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { defineCase } from '../../case.js';
import { expectScaleRefusals } from '../shared-fixtures.js';
import { activityFailure, replicasOf } from './fixtures.js';

export default defineCase({
  activity: scaleDeploymentActivity,
  scenarios: [
    {
      name: 'scales up: spec.replicas changes and the new pods come up',
      async run(t) {
        await t.deploy('web', 1);
        assert.deepEqual(await t.call({ name: 'web', replicas: 3, ns: t.ns }), { name: 'web', replicas: 3 });
        assert.equal((await replicasOf(t, 'web')).desired, 3);
        await t.until('3 web pods ready', async () => (await replicasOf(t, 'web')).ready === 3);
      },
    },
    {
      name: 'scales down to 0: every pod goes; the rest of the spec is untouched',
      async run(t) {
        await t.deploy('web', 2, { labels: { tier: 'front' } });
        assert.deepEqual(await t.call({ name: 'web', replicas: 0, ns: t.ns }), { name: 'web', replicas: 0 });
        const d = await t.apps.readNamespacedDeployment({ name: 'web', namespace: t.ns });
        assert.equal(d.spec?.replicas, 0);
        assert.deepEqual(d.spec?.template.metadata?.labels, { app: 'web', tier: 'front' });
        assert.equal(d.spec?.template.spec?.containers.length, 1);
        await t.until('no web pod left', async () => (await t.podNames('app=web', true)).length === 0);
      },
    },
    {
      name: 'a missing deployment is ActivityFailed naming it',
      async run(t) {
        const message = await activityFailure(t.call({ name: 'ghost', replicas: 2, ns: t.ns }));
        assert.match(
          message,
          /failed to scale 'ghost' to 2 replicas: there is no deployment 'ghost' in namespace/,
        );
      },
    },
    {
      name: 'negative, fractional or textual replicas and bad names are refused before any request',
      async run(t) {
        await t.deploy('keep', 1);
        await expectScaleRefusals(t, 'keep');
        await t.expectRefused({ name: 'keep', replicas: 2, ns: t.ns, replica: 3 }, 'replica');
        assert.equal((await replicasOf(t, 'keep')).desired, 1);
      },
    },
  ],
});
