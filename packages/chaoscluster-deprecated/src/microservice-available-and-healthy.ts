import { deploymentAvailableAndHealthyActivity } from '@chaoskit/chaoscluster-deployment';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { PROBES } from './modules.js';

export const microserviceAvailableAndHealthyActivity = defineDeprecated({
  name: 'microservice_available_and_healthy',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: deployment_available_and_healthy. Returns true when every expected replica of the deployment called name is available (so `tolerance: true` works, D12); fails with ActivityFailed when it is not found or not healthy.',
  returns: '`true` (D12)',
  args: { ...deploymentAvailableAndHealthyActivity.schema.shape },
  check: (args) => modernProblem(deploymentAvailableAndHealthyActivity, args),
  rbac: rulesOf(deploymentAvailableAndHealthyActivity),
  replacement: deploymentAvailableAndHealthyActivity.qualifiedName,
  run: (args, ctx) => delegate(deploymentAvailableAndHealthyActivity, args, ctx),
});

export const microserviceAvailableAndHealthy = microserviceAvailableAndHealthyActivity.fn;
