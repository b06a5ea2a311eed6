import type { ConformanceCase } from '../../case.js';
import terminatePods from './terminate-pods.case.js';

export const podCases: readonly ConformanceCase[] = [terminatePods];
