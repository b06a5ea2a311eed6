import { Deployments, replicaWaitProbe } from '@chaoskit/core';
import { PROBES } from './modules.js';

export const deploymentNotFullyAvailableActivity = replicaWaitProbe(Deployments, 'not fully available', {
  name: 'deployment_not_fully_available',
  module: PROBES,
  doc: 'Waits until the deployment is not fully available (status.readyReplicas differs from spec.replicas), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total. Uses a watch: it returns as soon as the condition holds.',
});

export const deploymentNotFullyAvailable = deploymentNotFullyAvailableActivity.fn;
