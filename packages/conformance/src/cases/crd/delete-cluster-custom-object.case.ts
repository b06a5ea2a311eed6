import { deleteClusterCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase } from '../../case.js';
import { deleteScenarios } from './delete-custom-object.case.js';

export default defineCase({
  activity: deleteClusterCustomObjectActivity,
  scenarios: deleteScenarios('cluster'),
});
