import {
  checkNameSelector,
  defineActivity,
  replicaWaitArgs,
  replicaWaitRbac,
  StatefulSets,
  waitForReplicas,
} from '@chaoskit/core';
import { PROBES } from './modules.js';

export const statefulsetFullyAvailableActivity = defineActivity({
  name: 'statefulset_fully_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Waits until every expected replica of the stateful set is ready (status.readyReplicas equals spec.replicas), then returns true; fails with ActivityFailed when that does not happen within timeout seconds in total (D76). Uses a watch: it returns as soon as the condition holds.',
  returns: '`true` once all replicas are ready; `ActivityFailed` at `timeout`',
  args: replicaWaitArgs(StatefulSets, 'fully available'),
  check: checkNameSelector,
  rbac: replicaWaitRbac(StatefulSets),
  run: (args, ctx) => waitForReplicas(StatefulSets, 'fully available', args, ctx),
});

export const statefulsetFullyAvailable = statefulsetFullyAvailableActivity.fn;
