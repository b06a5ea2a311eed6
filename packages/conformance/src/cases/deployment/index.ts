import type { ConformanceCase } from '../../case.js';
import createDeployment from './create-deployment.case.js';
import deleteDeployment from './delete-deployment.case.js';
import deploymentAvailableAndHealthy from './deployment-available-and-healthy.case.js';
import deploymentFullyAvailable from './deployment-fully-available.case.js';
import deploymentNotFullyAvailable from './deployment-not-fully-available.case.js';
import scaleDeployment from './scale-deployment.case.js';

export const deploymentCases: readonly ConformanceCase[] = [
  createDeployment,
  deleteDeployment,
  scaleDeployment,
  deploymentAvailableAndHealthy,
  deploymentFullyAvailable,
  deploymentNotFullyAvailable,
];
