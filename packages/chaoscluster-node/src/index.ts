import type { AnyActivity } from '@chaoskit/core';
import { cordonNodeActivity } from './cordon-node.js';
import { createNodeActivity } from './create-node.js';
import { deleteNodesActivity } from './delete-nodes.js';
import { drainNodesActivity } from './drain-nodes.js';
import { getNodesActivity } from './get-nodes.js';
import { uncordonNodeActivity } from './uncordon-node.js';

export * from './cordon-node.js';
export * from './create-node.js';
export * from './delete-nodes.js';
export * from './drain-nodes.js';
export { blockingBudget, classifyPod, type DrainOptions, type PodVerdict } from './drain-plan.js';
export * from './get-nodes.js';
export * from './uncordon-node.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  cordonNodeActivity,
  uncordonNodeActivity,
  createNodeActivity,
  deleteNodesActivity,
  drainNodesActivity,
  getNodesActivity,
];
