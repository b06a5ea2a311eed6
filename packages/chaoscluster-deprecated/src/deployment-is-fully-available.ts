import { deploymentFullyAvailableActivity } from '@chaoskit/chaoscluster-deployment';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { PROBES } from './modules.js';

export const deploymentIsFullyAvailableActivity = defineDeprecated({
  name: 'deployment_is_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: deployment_fully_available. Waits until every expected replica of the deployment is ready, then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total.',
  returns: '`true`',
  args: { ...deploymentFullyAvailableActivity.schema.shape },
  check: (args) => modernProblem(deploymentFullyAvailableActivity, args),
  rbac: rulesOf(deploymentFullyAvailableActivity),
  replacement: deploymentFullyAvailableActivity.qualifiedName,
  run: (args, ctx) => delegate(deploymentFullyAvailableActivity, args, ctx),
});

export const deploymentIsFullyAvailable = deploymentIsFullyAvailableActivity.fn;
