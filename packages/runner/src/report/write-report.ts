// `chaoskit report`: journals in, an HTML page (and a Markdown file) out.
import { writeFile } from 'node:fs/promises';
import { RUNNER_VERSION } from '../version.js';
import { CHARTS_HINT, loadCharts } from './chart-loader.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { type ReportModel, reportModel } from './model.js';
import { readJournals } from './read-journals.js';

export interface ReportOptions {
  /** Where the HTML page is written. */
  output: string;
  /** Where the Markdown report is written, if anywhere. */
  markdown?: string;
  /** Told when the report is written without its charts (ECharts is optional), and why. */
  warn?: (line: string) => void;
}

/** Builds the report of these journal files and writes it; returns its model. */
export async function writeReport(files: string[], options: ReportOptions): Promise<ReportModel> {
  const journals = readJournals(files);
  const model = reportModel(journals);
  const generator = `chaoskit ${RUNNER_VERSION}`;
  const charts = await loadCharts();
  if (!charts) options.warn?.(`written without charts: ${CHARTS_HINT}`);
  await writeFile(options.output, renderHtml(model, generator, charts));
  if (options.markdown) await writeFile(options.markdown, renderMarkdown(model, generator));
  return model;
}
