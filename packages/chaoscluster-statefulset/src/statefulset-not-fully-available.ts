import { replicaWaitProbe, StatefulSets } from '@chaoskit/core';
import { PROBES } from './modules.js';

export const statefulsetNotFullyAvailableActivity = replicaWaitProbe(StatefulSets, 'not fully available', {
  name: 'statefulset_not_fully_available',
  module: PROBES,
  doc: 'Waits until the stateful set is not fully available (status.readyReplicas differs from spec.replicas), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total (D76). Uses a watch: it returns as soon as the condition holds.',
});

export const statefulsetNotFullyAvailable = statefulsetNotFullyAvailableActivity.fn;
