import {
  checkNameSelector,
  Deployments,
  defineActivity,
  replicaWaitArgs,
  replicaWaitRbac,
  waitForReplicas,
} from '@chaoskit/core';
import { PROBES } from './modules.js';

export const deploymentFullyAvailableActivity = defineActivity({
  name: 'deployment_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Waits until every expected replica of the deployment is ready (status.readyReplicas equals spec.replicas), then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total. Uses a watch: it returns as soon as the condition holds.',
  returns: '`true` once all replicas are ready; `ActivityFailed` at `timeout`',
  args: replicaWaitArgs(Deployments, 'fully available'),
  check: checkNameSelector,
  rbac: replicaWaitRbac(Deployments),
  run: (args, ctx) => waitForReplicas(Deployments, 'fully available', args, ctx),
});

export const deploymentFullyAvailable = deploymentFullyAvailableActivity.fn;
