import type { ConformanceCase } from '../../case.js';

export const nodeCases: readonly ConformanceCase[] = [];
