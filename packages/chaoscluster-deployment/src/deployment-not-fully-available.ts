import { checkNameSelector, defineActivity } from '@chaoskit/core';
import { PROBES } from './modules.js';
import { WAIT_RBAC, waitArgs, waitForDeployment } from './wait-for-deployment.js';

export const deploymentNotFullyAvailableActivity = defineActivity({
  name: 'deployment_not_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Waits until the deployment is not fully available (status.readyReplicas differs from spec.replicas), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total. Uses a watch: it returns as soon as the condition holds.',
  returns: '`true` once not all are ready; `ActivityFailed` at `timeout`',
  args: waitArgs('not fully available'),
  check: checkNameSelector,
  rbac: WAIT_RBAC,
  run: (args, ctx) => waitForDeployment('not fully available', args, ctx),
});

export const deploymentNotFullyAvailable = deploymentNotFullyAvailableActivity.fn;
