import { Deployments, replicaWaitProbe } from '@chaoskit/core';
import { PROBES } from './modules.js';

export const deploymentFullyAvailableActivity = replicaWaitProbe(Deployments, 'fully available', {
  name: 'deployment_fully_available',
  module: PROBES,
  doc: 'Waits until every expected replica of the deployment is ready (status.readyReplicas equals spec.replicas), then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total. Uses a watch: it returns as soon as the condition holds.',
});

export const deploymentFullyAvailable = deploymentFullyAvailableActivity.fn;
