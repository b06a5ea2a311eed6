import type { ConformanceCase } from '../../case.js';

export const networkingCases: readonly ConformanceCase[] = [];
