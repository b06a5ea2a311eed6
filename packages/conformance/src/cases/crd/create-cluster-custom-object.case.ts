import { createClusterCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase } from '../../case.js';
import { createScenarios } from './create-custom-object.case.js';

export default defineCase({
  activity: createClusterCustomObjectActivity,
  scenarios: createScenarios('cluster'),
});
