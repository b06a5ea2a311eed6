import { patchClusterCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase } from '../../case.js';
import { patchScenarios } from './patch-custom-object.case.js';

export default defineCase({
  activity: patchClusterCustomObjectActivity,
  scenarios: patchScenarios('cluster'),
});
