// `chaoskit report`: journals in, an HTML page (and a Markdown file) out.
import { writeFile } from 'node:fs/promises';
import { RUNNER_VERSION } from '../package/version.js';
import { CHARTS_HINT, loadCharts } from './chart-loader.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { type ReportModel, reportModel } from './model.js';
import { printPdf } from './pdf.js';
import { type ReadJournal, readJournals } from './read-journals.js';

export interface ReportOptions {
  /** Where the HTML page is written, if anywhere. */
  output?: string | undefined;
  /** Where the Markdown report is written, if anywhere. */
  markdown?: string | undefined;
  /** Where the page is written as PDF (printed by Chromium), if anywhere. */
  pdf?: string | undefined;
  /** The report's heading, instead of one made of the runs' titles. */
  title?: string | undefined;
  /** Told when the report is written without its charts (ECharts is optional), and why. */
  warn?: (line: string) => void;
  /** Journals read from elsewhere (the cluster), after the files. */
  fetched?: readonly ReadJournal[];
}

/** Builds the report of these journal files (and those fetched) and writes it; returns its model. */
export async function writeReport(files: string[], options: ReportOptions): Promise<ReportModel> {
  const journals = readJournals(files, process.env, options.fetched);
  const model = reportModel(journals);
  const generator = `chaoskit ${RUNNER_VERSION}`;
  if (options.output || options.pdf) {
    const charts = await loadCharts();
    if (!charts) options.warn?.(`written without charts: ${CHARTS_HINT}`);
    const html = renderHtml(model, generator, charts, options.title);
    if (options.output) await writeFile(options.output, html);
    if (options.pdf) await printPdf(html, options.pdf);
  }
  if (options.markdown) await writeFile(options.markdown, renderMarkdown(model, generator, options.title));
  return model;
}
