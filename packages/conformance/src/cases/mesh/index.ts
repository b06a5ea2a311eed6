import type { ConformanceCase } from '../../case.js';

export const meshCases: readonly ConformanceCase[] = [];
