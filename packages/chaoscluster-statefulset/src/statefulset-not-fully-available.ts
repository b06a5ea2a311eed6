import {
  checkNameSelector,
  defineActivity,
  replicaWaitArgs,
  replicaWaitRbac,
  StatefulSets,
  waitForReplicas,
} from '@chaoskit/core';
import { PROBES } from './modules.js';

export const statefulsetNotFullyAvailableActivity = defineActivity({
  name: 'statefulset_not_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Waits until the stateful set is not fully available (status.readyReplicas differs from spec.replicas), then returns true; fails with ActivityFailed when it stays fully available for timeout seconds in total (D76). Uses a watch: it returns as soon as the condition holds.',
  returns: '`true` once not all are ready; `ActivityFailed` at `timeout`',
  args: replicaWaitArgs(StatefulSets, 'not fully available'),
  check: checkNameSelector,
  rbac: replicaWaitRbac(StatefulSets),
  run: (args, ctx) => waitForReplicas(StatefulSets, 'not fully available', args, ctx),
});

export const statefulsetNotFullyAvailable = statefulsetNotFullyAvailableActivity.fn;
