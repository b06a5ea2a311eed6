import { checkNameSelector, defineActivity } from '@chaoskit/core';
import { PROBES } from './modules.js';
import { WAIT_RBAC, waitArgs, waitForDeployment } from './wait-for-deployment.js';

export const deploymentFullyAvailableActivity = defineActivity({
  name: 'deployment_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Waits until every expected replica of the deployment is ready (status.readyReplicas equals spec.replicas), then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total. Uses a watch: it returns as soon as the condition holds.',
  returns: '`true` once all replicas are ready; `ActivityFailed` at `timeout`',
  args: waitArgs('fully available'),
  check: checkNameSelector,
  rbac: WAIT_RBAC,
  run: (args, ctx) => waitForDeployment('fully available', args, ctx),
});

export const deploymentFullyAvailable = deploymentFullyAvailableActivity.fn;
