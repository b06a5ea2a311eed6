// `chaoskit report`: an HTML (and Markdown) report of journals: files, or kept in the cluster.
// Chaos Toolkit's form (`chaos report [--export-format F] JOURNAL... REPORT`, D162) writes one
// report, the last argument, in its format.
import { registerSecret } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { adminClient } from '../cluster/choice.js';
import { loadVarFiles, parseVar } from '../experiment/vars.js';
import { fetchJournal } from '../journals/read.js';
import { EXIT } from '../run/exit-codes.js';
import { journalNamespace, NAMESPACE_HELP } from './journals.js';
import { collect, withCluster, withLogging } from './options.js';
import { fail, session } from './session.js';

const EXPORT_FORMATS = ['html', 'html5', 'markdown', 'pdf'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

interface ReportOptions {
  output: string;
  markdown?: string;
  fromCluster: string[];
  namespace?: string;
  context?: string;
  kubeconfig?: string;
  exportFormat?: ExportFormat;
  title?: string;
  var: string[];
  varFile: string[];
}

// The report's name says Chaos Toolkit's form even without --export-format.
const REPORT_FILE = /\.(md|markdown|html?|pdf)$/i;
const formatOf = (path: string): ExportFormat =>
  /\.html?$/i.test(path) ? 'html' : /\.pdf$/i.test(path) ? 'pdf' : 'markdown';

/**
 * Where each format goes: Chaos Toolkit's form writes its REPORT (the last argument) in
 * --export-format, else the format its name says; chaoskit's, --output and --markdown.
 */
function targets(files: string[], opts: ReportOptions, command: Command) {
  const last = files.at(-1);
  const chaosToolkit = opts.exportFormat !== undefined || (files.length >= 2 && REPORT_FILE.test(last ?? ''));
  if (!chaosToolkit) return { files, output: opts.output, markdown: opts.markdown };
  if (!last || (files.length === 1 && opts.fromCluster.length === 0))
    throw new InvalidArgumentError('report JOURNAL... REPORT: give the journals, then the report to write');
  if (/\.json$/i.test(last))
    throw new InvalidArgumentError(
      `report: '${last}' would be the report, written over what looks like a journal: the last argument is the report to write (chaos report JOURNAL... REPORT)`,
    );
  const format = opts.exportFormat ?? formatOf(last);
  const explicit = command.getOptionValueSource('output') === 'cli';
  return {
    files: files.slice(0, -1),
    output: format === 'html' || format === 'html5' ? last : explicit ? opts.output : undefined,
    markdown: format === 'markdown' ? last : opts.markdown,
    pdf: format === 'pdf' ? last : undefined,
  };
}

export function register(program: Command): void {
  withLogging(withCluster(program.command('report')))
    .description(
      'write an HTML report (and Markdown) of journals: timeline, what actions touched, probes, comparison',
    )
    .argument(
      '[journals...]',
      "journal files (chaoskit's or Chaos Toolkit's); in Chaos Toolkit's form, then the report to write",
    )
    .option('--output <path>', 'where to write the HTML report', './report.html')
    .option('--markdown <path>', 'also write the report as Markdown')
    .option(
      '--from-cluster <run>',
      'also the journal a run kept in the cluster: its run id, or latest (repeatable)',
      collect,
      [],
    )
    .option('-n, --namespace <namespace>', `with --from-cluster: ${NAMESPACE_HELP}`)
    .addOption(
      new Option(
        '--export-format <format>',
        "Chaos Toolkit's form: write the last argument as this (pdf: printed by Chromium); default what its name says",
      ).choices(EXPORT_FORMATS),
    )
    .option('--title <title>', "the report's heading (default: the experiment's title, or how many runs)")
    .option(
      '--var <key[:type]=value>',
      "Chaos Toolkit's: a configuration value; the report shows no activity's arguments for it to fill (repeatable)",
      collect,
      [],
    )
    .option(
      '--var-file <path>',
      "Chaos Toolkit's: the secrets it holds (or the environment values of a .env file) are masked in the report (repeatable)",
      collect,
      [],
    )
    .action(async (given: string[], opts: ReportOptions, command: Command) => {
      let where: ReturnType<typeof targets>;
      try {
        for (const text of opts.var) parseVar(text);
        where = targets(given, opts, command);
        if (where.files.length === 0 && opts.fromCluster.length === 0)
          throw new InvalidArgumentError('give journal files, or --from-cluster <run id|latest>, or both');
      } catch (err) {
        session.exitCode = fail(err, EXIT.usage);
        return;
      }
      try {
        // A .env file's values join the environment, where the journals' env secrets are read.
        const vars = await loadVarFiles(opts.varFile, process.env);
        for (const group of Object.values(vars.secrets ?? {}))
          for (const value of Object.values(group))
            if (typeof value !== 'object') registerSecret(String(value));
        const namespace = opts.fromCluster.length ? journalNamespace(opts) : undefined;
        const fetched = [];
        for (const run of opts.fromCluster) {
          const { summary, text, configMap } = await fetchJournal(adminClient(opts), namespace!, run);
          fetched.push({
            source: `cluster:${namespace}/${summary.runId} (ConfigMap ${configMap})`,
            journal: JSON.parse(text) as unknown,
          });
        }
        // Loaded here: the charting library is needed by this command only (and is optional).
        const { writeReport } = await import('../report/write-report.js');
        const warn = (line: string) => process.stderr.write(`chaoskit report: ${line}\n`);
        const model = await writeReport(where.files, { ...where, title: opts.title, warn, fetched });
        const written = [where.output, where.markdown, where.pdf].filter(Boolean);
        process.stderr.write(
          `report of ${model.runs.length} journal(s) written to ${written.join(' and ')}\n`,
        );
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
