import { deploymentAvailableAndHealthyActivity } from '@chaoskit/chaoscluster-deployment';
import { defineForwarding } from './deprecation.js';
import { PROBES } from './modules.js';

export const microserviceAvailableAndHealthyActivity = defineForwarding(
  deploymentAvailableAndHealthyActivity,
  {
    name: 'microservice_available_and_healthy',
    kind: 'probe',
    module: PROBES,
    doc: 'Deprecated: deployment_available_and_healthy. Returns true when every expected replica of the deployment called name is available (so `tolerance: true` works, D12); fails with ActivityFailed when it is not found or not healthy.',
    returns: '`true` (D12)',
  },
);

export const microserviceAvailableAndHealthy = microserviceAvailableAndHealthyActivity.fn;
