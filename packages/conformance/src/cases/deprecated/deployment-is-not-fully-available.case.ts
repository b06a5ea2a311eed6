import assert from 'node:assert/strict';
import { deploymentIsNotFullyAvailableActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, holdWarnedOnce, stuckDeployment } from './fixtures.js';

export default defineCase({
  activity: deploymentIsNotFullyAvailableActivity,
  scenarios: [
    {
      name: 'returns true while not every replica is ready, as deployment_not_fully_available does; warns once',
      async run(t) {
        await stuckDeployment(t, 'stuck', 2);
        await holdWarnedOnce(t, [
          { name: 'stuck', ns: t.ns, timeout: 10 },
          { name: 'stuck', ns: t.ns },
        ]);
      },
    },
    {
      name: 'fails when the deployment stays fully available for timeout',
      async run(t) {
        await t.deploy('web', 1);
        assert.match(
          await activityFailure(t.call({ name: 'web', ns: t.ns, timeout: 1 })),
          /deployment 'web' failed to stop running within 1s: 1 of 1 replica ready, it stayed fully available/,
        );
      },
    },
    {
      name: 'a missing name, a bad timeout and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: -1 }, 'timeout');
        await t.expectRefused({ name: 'web', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'web', ns: t.ns, wait: true }, 'wait');
      },
    },
  ],
});
