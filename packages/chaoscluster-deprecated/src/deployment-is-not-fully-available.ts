import { deploymentNotFullyAvailableActivity } from '@chaoskit/chaoscluster-deployment';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { PROBES } from './modules.js';

export const deploymentIsNotFullyAvailableActivity = defineDeprecated({
  name: 'deployment_is_not_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: deployment_not_fully_available. Waits until the deployment is not fully available (not every expected replica ready), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total.',
  returns: '`true`',
  args: { ...deploymentNotFullyAvailableActivity.schema.shape },
  check: (args) => modernProblem(deploymentNotFullyAvailableActivity, args),
  rbac: rulesOf(deploymentNotFullyAvailableActivity),
  replacement: deploymentNotFullyAvailableActivity.qualifiedName,
  run: (args, ctx) => delegate(deploymentNotFullyAvailableActivity, args, ctx),
});

export const deploymentIsNotFullyAvailable = deploymentIsNotFullyAvailableActivity.fn;
