import { deploymentNotFullyAvailableActivity } from '@chaoskit/chaoscluster-deployment';
import { defineForwarding } from './deprecation.js';
import { PROBES } from './modules.js';

export const deploymentIsNotFullyAvailableActivity = defineForwarding(deploymentNotFullyAvailableActivity, {
  name: 'deployment_is_not_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: deployment_not_fully_available. Waits until the deployment is not fully available (not every expected replica ready), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total.',
  returns: '`true`',
});

export const deploymentIsNotFullyAvailable = deploymentIsNotFullyAvailableActivity.fn;
