import { getClusterCustomObjectActivity } from '@chaoskit/chaoscluster-crd';
import { defineCase } from '../../case.js';
import { getScenarios } from './get-custom-object.case.js';

export default defineCase({ activity: getClusterCustomObjectActivity, scenarios: getScenarios('cluster') });
