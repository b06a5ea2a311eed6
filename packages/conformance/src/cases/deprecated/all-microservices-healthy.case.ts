import { allMicroservicesHealthyActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { everyPodHealthyScenario, healthScenarios } from '../pod/fixtures.js';
import { holdWarnedOnce } from './fixtures.js';

export default defineCase({
  activity: allMicroservicesHealthyActivity,
  scenarios: [
    everyPodHealthyScenario('; warns once', (t) => holdWarnedOnce(t, [{ ns: t.ns }, { ns: t.ns }])),
    ...healthScenarios,
  ],
});
