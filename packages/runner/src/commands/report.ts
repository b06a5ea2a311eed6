// `chaoskit report`: an HTML (and Markdown) report of journals: files, or kept in the cluster.
import { type Command, InvalidArgumentError } from 'commander';
import { EXIT } from '../exit-codes.js';
import { fetchJournal } from '../journals/read.js';
import { adminClient } from './cluster-choice.js';
import { journalNamespace, NAMESPACE_HELP } from './journals.js';
import { collect, withCluster } from './options.js';
import { fail, session } from './session.js';

interface ReportOptions {
  output: string;
  markdown?: string;
  fromCluster: string[];
  namespace?: string;
  context?: string;
  kubeconfig?: string;
}

export function register(program: Command): void {
  withCluster(program.command('report'))
    .description(
      'write an HTML report (and Markdown) of journals: timeline, what actions touched, probes, comparison',
    )
    .argument('[journals...]', "journal files (chaoskit's or Chaos Toolkit's)")
    .option('--output <path>', 'where to write the HTML report', './report.html')
    .option('--markdown <path>', 'also write the report as Markdown')
    .option(
      '--from-cluster <run>',
      'also the journal a run kept in the cluster: its run id, or latest (repeatable)',
      collect,
      [],
    )
    .option('-n, --namespace <namespace>', `with --from-cluster: ${NAMESPACE_HELP}`)
    .action(async (files: string[], opts: ReportOptions) => {
      if (files.length === 0 && opts.fromCluster.length === 0) {
        session.exitCode = fail(
          new InvalidArgumentError('give journal files, or --from-cluster <run id|latest>, or both'),
          EXIT.usage,
        );
        return;
      }
      try {
        const namespace = journalNamespace(opts);
        const fetched = [];
        for (const run of opts.fromCluster) {
          const { summary, text, configMap } = await fetchJournal(adminClient(opts), namespace, run);
          fetched.push({
            source: `cluster:${namespace}/${summary.runId} (ConfigMap ${configMap})`,
            journal: JSON.parse(text) as unknown,
          });
        }
        // Loaded here: the charting library is needed by this command only (and is optional).
        const { writeReport } = await import('../report/write-report.js');
        const warn = (line: string) => process.stderr.write(`chaoskit report: ${line}\n`);
        const model = await writeReport(files, { ...opts, warn, fetched });
        process.stderr.write(
          `report of ${model.runs.length} journal(s) written to ${opts.output}${opts.markdown ? ` and ${opts.markdown}` : ''}\n`,
        );
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
