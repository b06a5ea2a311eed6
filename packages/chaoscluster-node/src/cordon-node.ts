import { schedulabilityActivity } from './schedulability.js';

export const cordonNodeActivity = schedulabilityActivity(
  'cordon_node',
  'Cordons the matching nodes (spec.unschedulable true) so that no new pod is scheduled on them. With neither name nor label_selector, every node of the cluster. Returns the names of the matching nodes, now all cordoned; none matching is an ActivityFailed. Undo with uncordon_node.',
);

export const cordonNode = cordonNodeActivity.fn;
