import { replicaWaitProbe, StatefulSets } from '@chaoskit/core';
import { PROBES } from './modules.js';

export const statefulsetFullyAvailableActivity = replicaWaitProbe(StatefulSets, 'fully available', {
  name: 'statefulset_fully_available',
  module: PROBES,
  doc: 'Waits until every expected replica of the stateful set is ready (status.readyReplicas equals spec.replicas), then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total (D76). Uses a watch: it returns as soon as the condition holds.',
});

export const statefulsetFullyAvailable = statefulsetFullyAvailableActivity.fn;
