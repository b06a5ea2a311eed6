import assert from 'node:assert/strict';
import { allPodsHealthyActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { healthyRunning } from '../../running/pod-scenarios.js';
import { everyPodHealthyScenario, healthScenarios } from './fixtures.js';

export default defineCase({
  activity: allPodsHealthyActivity,
  scenarios: [
    everyPodHealthyScenario('', async (t) => {
      assert.equal(await t.call({ ns: t.ns }), true);
    }),
    ...healthScenarios,
    healthyRunning,
  ],
});
