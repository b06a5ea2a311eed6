import type { ConformanceCase } from '../../case.js';

export const crdCases: readonly ConformanceCase[] = [];
