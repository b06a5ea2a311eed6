import { allPodsHealthyActivity } from '@chaoskit/chaoscluster-pod';
import { defineDeprecated, delegate, rulesOf } from './deprecation.js';
import { PROBES } from './modules.js';

export const allMicroservicesHealthyActivity = defineDeprecated({
  name: 'all_microservices_healthy',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: all_pods_healthy (the same argument). Returns true when no pod of the namespace is Failed and every pod is Running or Succeeded (also when there is none); fails with ActivityFailed ("the system is unhealthy") naming each pod that is not.',
  returns: '`true`, or `ActivityFailed` "the system is unhealthy: …" naming the pods',
  args: { ...allPodsHealthyActivity.schema.shape },
  rbac: rulesOf(allPodsHealthyActivity),
  replacement: allPodsHealthyActivity.qualifiedName,
  run: (args, ctx) => delegate(allPodsHealthyActivity, args, ctx),
});

export const allMicroservicesHealthy = allMicroservicesHealthyActivity.fn;
