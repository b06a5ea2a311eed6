import type { AnyActivity } from '@chaoskit/core';
import { createDeploymentActivity } from './create-deployment.js';
import { deleteDeploymentActivity } from './delete-deployment.js';
import { deploymentAvailableAndHealthyActivity } from './deployment-available-and-healthy.js';
import { deploymentFullyAvailableActivity } from './deployment-fully-available.js';
import { deploymentNotFullyAvailableActivity } from './deployment-not-fully-available.js';
import { scaleDeploymentActivity } from './scale-deployment.js';

export * from './create-deployment.js';
export * from './delete-deployment.js';
export * from './deployment-available-and-healthy.js';
export * from './deployment-fully-available.js';
export * from './deployment-not-fully-available.js';
export * from './scale-deployment.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  createDeploymentActivity,
  deleteDeploymentActivity,
  scaleDeploymentActivity,
  deploymentAvailableAndHealthyActivity,
  deploymentFullyAvailableActivity,
  deploymentNotFullyAvailableActivity,
];
