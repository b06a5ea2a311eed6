import { allMicroservicesHealthyActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { healthScenarios } from '../pod/fixtures.js';
import { holdWarnedOnce, podInPhase } from './fixtures.js';

export default defineCase({
  activity: allMicroservicesHealthyActivity,
  scenarios: [
    {
      name: 'holds when every pod is Running or Succeeded (a deployment and a finished pod); warns once',
      async run(t) {
        await t.deploy('web', 2);
        await podInPhase(t, 'job-done', 'Succeeded');
        await holdWarnedOnce(t, [{ ns: t.ns }, { ns: t.ns }]);
      },
    },
    ...healthScenarios,
  ],
});
