import type { ConformanceCase } from '../../case.js';
import cordonNode from './cordon-node.case.js';
import createNode from './create-node.case.js';
import deleteNodes from './delete-nodes.case.js';
import drainNodes from './drain-nodes.case.js';
import getNodes from './get-nodes.case.js';
import uncordonNode from './uncordon-node.case.js';

export const nodeCases: readonly ConformanceCase[] = [
  cordonNode,
  uncordonNode,
  createNode,
  deleteNodes,
  drainNodes,
  getNodes,
];
