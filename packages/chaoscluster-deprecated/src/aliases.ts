// What 0.25.1's actions.py and probes.py import, and Python therefore resolves in chaosk8s.actions
// and chaosk8s.probes too (experiments call `chaosk8s.probes.all_pods_healthy`): the modern
// packages' definitions, found here as well, not copies.

import {
  createDeploymentActivity,
  deleteDeploymentActivity,
  deploymentAvailableAndHealthyActivity,
  deploymentFullyAvailableActivity,
  deploymentNotFullyAvailableActivity,
  scaleDeploymentActivity,
} from '@chaoskit/chaoscluster-deployment';
import {
  allPodsHealthyActivity,
  deletePodsActivity,
  podIsNotAvailableActivity,
  readPodLogsActivity,
} from '@chaoskit/chaoscluster-pod';
import { deleteReplicaSetActivity } from '@chaoskit/chaoscluster-replicaset';
import { deleteServiceActivity, serviceIsInitializedActivity } from '@chaoskit/chaoscluster-service';
import { type AnyActivity, aliasActivity } from '@chaoskit/core';
import { ACTIONS, PROBES } from './modules.js';

// from chaosk8s.deployment.actions, chaosk8s.replicaset.actions, chaosk8s.pod.actions,
// chaosk8s.service.actions
const actions: AnyActivity[] = [
  createDeploymentActivity,
  deleteDeploymentActivity,
  scaleDeploymentActivity,
  deleteReplicaSetActivity,
  deletePodsActivity,
  deleteServiceActivity,
];

// from chaosk8s.pod.probes, chaosk8s.deployment.probes, chaosk8s.service.probes
const probes: AnyActivity[] = [
  readPodLogsActivity,
  podIsNotAvailableActivity,
  allPodsHealthyActivity,
  deploymentAvailableAndHealthyActivity,
  deploymentNotFullyAvailableActivity,
  deploymentFullyAvailableActivity,
  serviceIsInitializedActivity,
];

export const aliases = [
  ...actions.map((a) => aliasActivity(ACTIONS, a)),
  ...probes.map((a) => aliasActivity(PROBES, a)),
];
