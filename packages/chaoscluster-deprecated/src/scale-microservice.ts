import { scaleDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { ACTIONS } from './modules.js';

export const scaleMicroserviceActivity = defineDeprecated({
  name: 'scale_microservice',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deprecated: scale_deployment. Scales the deployment called name to replicas. Returns the name and the replicas now asked for.',
  returns: '`{ name, replicas }`',
  args: { ...scaleDeploymentActivity.schema.shape },
  check: (args) => modernProblem(scaleDeploymentActivity, args),
  rbac: rulesOf(scaleDeploymentActivity),
  replacement: scaleDeploymentActivity.qualifiedName,
  run: (args, ctx) => delegate(scaleDeploymentActivity, args, ctx),
});

export const scaleMicroservice = scaleMicroserviceActivity.fn;
