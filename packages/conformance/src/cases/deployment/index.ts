import type { ConformanceCase } from '../../case.js';

export const deploymentCases: readonly ConformanceCase[] = [];
