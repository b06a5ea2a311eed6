export { type ConformanceCase, defineCase, type Scenario } from './case.js';
export { CASE_LABEL, CaseContext, type ClusterInfo, RUN_LABEL, ScenarioSkipped } from './case-context.js';
export { type DiscoveredCase, discoverCases, loadCases } from './cases/index.js';
export { coverageGaps } from './kit/coverage.js';
export { junit, markdown, summary, writeReports } from './kit/report.js';
export { type CaseResult, runCases, type ScenarioResult } from './kit/run-cases.js';
export { sweep } from './kit/sweep.js';
