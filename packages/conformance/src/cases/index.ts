import type { ConformanceCase } from '../case.js';
import { crdCases } from './crd/index.js';
import { deploymentCases } from './deployment/index.js';
import { deprecatedCases } from './deprecated/index.js';
import { meshCases } from './mesh/index.js';
import { networkingCases } from './networking/index.js';
import { nodeCases } from './node/index.js';
import { podCases } from './pod/index.js';

/** One case per activity. The coverage guard checks this against every registered activity. */
export const cases: readonly ConformanceCase[] = [
  ...podCases,
  ...nodeCases,
  ...deploymentCases,
  ...networkingCases,
  ...crdCases,
  ...deprecatedCases,
  ...meshCases,
];
