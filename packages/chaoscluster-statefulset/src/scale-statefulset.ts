import { StatefulSets, scaleAction } from '@chaoskit/core';
import { ACTIONS } from './modules.js';

export const scaleStatefulsetActivity = scaleAction(StatefulSets, {
  name: 'scale_statefulset',
  module: ACTIONS,
  doc: 'Scales the stateful set up or down by setting its spec.replicas. Returns the name and the replicas now asked for; fails with ActivityFailed when there is no such stateful set.',
});

export const scaleStatefulset = scaleStatefulsetActivity.fn;
