// The report's charts are drawn by Apache ECharts (with zrender, 67 MB of the 163 MB an install
// of @chaoskit/runner took, for this one command): an optional peer dependency, loaded here by
// `chaoskit report` only. Without it the report is written without its charts, and says how to
// add them. Nothing here loads ECharts until loadCharts() is called.

import { isMissingPackage } from '../package/missing-package.js';

export type Charts = Pick<typeof import('./charts.js'), 'timelineChart' | 'comparisonChart'>;

export const CHARTS_HINT = "the report's charts need the optional package echarts: npm install echarts";

/** The charts, or undefined when ECharts is not installed (any other failure is thrown). */
export async function loadCharts(): Promise<Charts | undefined> {
  try {
    return await import('./charts.js');
  } catch (err) {
    if (isMissingPackage(err, ['echarts', 'zrender'])) return undefined;
    throw err;
  }
}
