import type { ConformanceCase } from '../../case.js';

export const deprecatedCases: readonly ConformanceCase[] = [];
