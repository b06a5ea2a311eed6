import { deploymentFullyAvailableActivity } from '@chaoskit/chaoscluster-deployment';
import { defineForwarding } from './deprecation.js';
import { PROBES } from './modules.js';

export const deploymentIsFullyAvailableActivity = defineForwarding(deploymentFullyAvailableActivity, {
  name: 'deployment_is_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: deployment_fully_available. Waits until every expected replica of the deployment is ready, then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total.',
  returns: '`true`',
});

export const deploymentIsFullyAvailable = deploymentIsFullyAvailableActivity.fn;
