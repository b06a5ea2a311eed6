export { type ConformanceCase, defineCase, type Scenario } from './case.js';
export { CASE_LABEL, CaseContext, type ClusterInfo } from './case-context.js';
export { cases } from './cases/index.js';
