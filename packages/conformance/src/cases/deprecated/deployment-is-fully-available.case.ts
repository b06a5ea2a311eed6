import assert from 'node:assert/strict';
import { deploymentIsFullyAvailableActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, holdsOnHealthyWeb, stuckDeployment } from './fixtures.js';

export default defineCase({
  activity: deploymentIsFullyAvailableActivity,
  scenarios: [
    holdsOnHealthyWeb(
      'returns true once every replica is ready, as deployment_fully_available does; warns once',
      (t) => [
        { name: 'web', ns: t.ns, timeout: 10 },
        { name: 'web', ns: t.ns },
      ],
    ),
    {
      name: 'fails when the deployment does not recover within timeout',
      async run(t) {
        await stuckDeployment(t, 'stuck', 1);
        assert.match(
          await activityFailure(t.call({ name: 'stuck', ns: t.ns, timeout: 1 })),
          /deployment 'stuck' failed to recover within 1s: 0 of 1 replica ready/,
        );
      },
    },
    {
      name: 'a missing name, a bad timeout and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 0 }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: '30' }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, replicas: 2 }, 'replicas');
      },
    },
  ],
});
