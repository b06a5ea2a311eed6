import assert from 'node:assert/strict';
import { scaleMicroserviceActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, callsWarnedOnce, resultOf } from './fixtures.js';

export default defineCase({
  activity: scaleMicroserviceActivity,
  scenarios: [
    {
      name: 'scales the deployment up, then down to 0, as scale_deployment does; warns once',
      async run(t) {
        await t.deploy('web', 1);
        const [up, down] = await callsWarnedOnce(t, [
          { name: 'web', replicas: 3, ns: t.ns },
          { name: 'web', replicas: 0, ns: t.ns },
        ]);
        assert.deepEqual(resultOf(up), { name: 'web', replicas: 3 });
        assert.deepEqual(resultOf(down), { name: 'web', replicas: 0 });
        const d = await t.apps.readNamespacedDeployment({ name: 'web', namespace: t.ns });
        assert.equal(d.spec?.replicas, 0);
        await t.until('the pods of web gone', async () => (await t.podNames('app=web', true)).length === 0);
      },
    },
    {
      name: 'a deployment that is not there is an ActivityFailed naming it',
      async run(t) {
        const message = await activityFailure(t.call({ name: 'ghost', replicas: 2, ns: t.ns }));
        assert.match(
          message,
          new RegExp(
            `failed to scale 'ghost' to 2 replicas: there is no deployment 'ghost' in namespace '${t.ns}'`,
          ),
        );
      },
    },
    {
      name: 'bad replicas, names and arguments are refused before any request',
      async run(t) {
        await t.deploy('web', 1);
        await t.expectRefused({ name: 'web', ns: t.ns }, 'replicas');
        await t.expectRefused({ name: 'web', replicas: -1, ns: t.ns }, 'replicas');
        await t.expectRefused({ name: 'web', replicas: 'three', ns: t.ns }, 'replicas');
        await t.expectRefused({ name: 'Web', replicas: 2, ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', replicas: 2, ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused(
          { name: 'web', replicas: 2, ns: t.ns, label_selector: 'app=web' },
          'label_selector',
        );
        const d = await t.apps.readNamespacedDeployment({ name: 'web', namespace: t.ns });
        assert.equal(d.spec?.replicas, 1);
      },
    },
  ],
});
