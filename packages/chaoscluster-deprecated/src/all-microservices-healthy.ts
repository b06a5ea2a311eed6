import { allPodsHealthyActivity } from '@chaoskit/chaoscluster-pod';
import { defineForwarding } from './deprecation.js';
import { PROBES } from './modules.js';

export const allMicroservicesHealthyActivity = defineForwarding(allPodsHealthyActivity, {
  name: 'all_microservices_healthy',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: all_pods_healthy (the same argument). Returns true when no pod of the namespace is Failed and every pod is Running or Succeeded (also when there is none); fails with ActivityFailed ("the system is unhealthy") naming each pod that is not.',
  returns: '`true`, or `ActivityFailed` "the system is unhealthy: …" naming the pods',
});

export const allMicroservicesHealthy = allMicroservicesHealthyActivity.fn;
