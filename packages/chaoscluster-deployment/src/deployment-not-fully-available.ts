import {
  checkNameSelector,
  Deployments,
  defineActivity,
  replicaWaitArgs,
  replicaWaitRbac,
  waitForReplicas,
} from '@chaoskit/core';
import { PROBES } from './modules.js';

export const deploymentNotFullyAvailableActivity = defineActivity({
  name: 'deployment_not_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Waits until the deployment is not fully available (status.readyReplicas differs from spec.replicas), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total. Uses a watch: it returns as soon as the condition holds.',
  returns: '`true` once not all are ready; `ActivityFailed` at `timeout`',
  args: replicaWaitArgs(Deployments, 'not fully available'),
  check: checkNameSelector,
  rbac: replicaWaitRbac(Deployments),
  run: (args, ctx) => waitForReplicas(Deployments, 'not fully available', args, ctx),
});

export const deploymentNotFullyAvailable = deploymentNotFullyAvailableActivity.fn;
