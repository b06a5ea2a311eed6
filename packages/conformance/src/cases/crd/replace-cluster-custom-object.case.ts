import { replaceClusterCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase } from '../../case.js';
import { replaceScenarios } from './replace-custom-object.case.js';

export default defineCase({
  activity: replaceClusterCustomObjectActivity,
  scenarios: replaceScenarios('cluster'),
});
