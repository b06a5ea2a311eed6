import { schedulabilityActivity } from './schedulability.js';

export const uncordonNodeActivity = schedulabilityActivity(
  'uncordon_node',
  'Uncordons the matching nodes (spec.unschedulable false) so that pods are scheduled on them again; the rollback of cordon_node and drain_nodes. With neither name nor label_selector, every node of the cluster. Returns the names of the matching nodes, now all schedulable; none matching is an ActivityFailed.',
);

export const uncordonNode = uncordonNodeActivity.fn;
