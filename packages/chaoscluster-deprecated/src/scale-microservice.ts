import { scaleDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { defineForwarding } from './deprecation.js';
import { ACTIONS } from './modules.js';

export const scaleMicroserviceActivity = defineForwarding(scaleDeploymentActivity, {
  name: 'scale_microservice',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deprecated: scale_deployment. Scales the deployment called name to replicas. Returns the name and the replicas now asked for.',
  returns: '`{ name, replicas }`',
});

export const scaleMicroservice = scaleMicroserviceActivity.fn;
