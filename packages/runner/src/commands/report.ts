// `chaoskit report`: an HTML (and Markdown) report of journals.
import type { Command } from 'commander';
import { fail, session } from './session.js';

export function register(program: Command): void {
  program
    .command('report')
    .description(
      'write an HTML report (and Markdown) of journals: timeline, what actions touched, probes, comparison',
    )
    .argument('<journals...>', "journal files (chaoskit's or Chaos Toolkit's)")
    .option('--output <path>', 'where to write the HTML report', './report.html')
    .option('--markdown <path>', 'also write the report as Markdown')
    .action(async (files: string[], opts: { output: string; markdown?: string }) => {
      try {
        // Loaded here: the charting library is needed by this command only (and is optional).
        const { writeReport } = await import('../report/write-report.js');
        const warn = (line: string) => process.stderr.write(`chaoskit report: ${line}\n`);
        const model = await writeReport(files, { ...opts, warn });
        process.stderr.write(
          `report of ${model.runs.length} journal(s) written to ${opts.output}${opts.markdown ? ` and ${opts.markdown}` : ''}\n`,
        );
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
