import assert from 'node:assert/strict';
import { allPodsHealthyActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { healthyRunning } from '../../running/pod-scenarios.js';
import { healthScenarios, podInPhase } from './fixtures.js';

export default defineCase({
  activity: allPodsHealthyActivity,
  scenarios: [
    {
      name: 'holds when every pod is Running or Succeeded (a deployment and a finished pod)',
      async run(t) {
        await t.deploy('web', 2);
        await podInPhase(t, 'job-done', 'Succeeded');
        assert.equal(await t.call({ ns: t.ns }), true);
      },
    },
    ...healthScenarios,
    healthyRunning,
  ],
});
