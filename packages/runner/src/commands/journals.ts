// `chaoskit journals`: the journals runs kept in the cluster (run --journal-to-cluster, which
// deploy's pods run with), or one of them whole (for `chaos report`, jq…).
import { redact } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { adminClient } from '../cluster/choice.js';
import { missingNamespace } from '../cluster/namespace-hint.js';
import { missingJournals } from '../deploy/missing.js';
import { fetchJournal, type JournalSummary, listJournals } from '../journals/read.js';
import { terminalText, terminalValue } from '../output/terminal.js';
import { EXIT } from '../run/exit-codes.js';
import { RECORDS_DEFAULT, recordsNamespace, withCluster } from './options.js';
import { columns, formatted, outputFormat, terminalJson, withOutput } from './output.js';
import { fail, session } from './session.js';

/** -n of `journals` and `report --from-cluster`: where the runs kept them (checked before any request). */
export const journalNamespace = (opts: { namespace?: string; context?: string; kubeconfig?: string }) =>
  recordsNamespace(opts.namespace, '-n/--namespace', opts);

export const NAMESPACE_HELP = `the namespace the journals are kept in (the run's --ledger-namespace, a deployment's namespace; default ${RECORDS_DEFAULT})`;

function table(journals: readonly JournalSummary[]): string {
  return columns([
    ['RUN ID', 'EXPERIMENT', 'STATUS', 'STARTED', 'DEVIATED', 'DURATION'],
    // Labels and annotations are anyone's to write who may write the ConfigMap (D160).
    ...journals.map((j) => [
      terminalValue(j.runId),
      terminalValue(j.experiment),
      `${terminalValue(j.status)}${j.truncated ? ' (cut)' : ''}`,
      terminalValue(j.started),
      j.deviated ? 'yes' : 'no',
      j.duration === undefined ? '-' : `${j.duration.toFixed(1)}s`,
    ]),
  ]);
}

export function register(program: Command): void {
  withOutput(withCluster(program.command('journals')), 'the list (or the journal)')
    .description(
      'list the journals runs kept in the cluster (run --journal-to-cluster, deployed runs), or print one of them',
    )
    .argument('[run]', 'print the journal of this run (its id, or latest) as JSON')
    .option('-n, --namespace <namespace>', NAMESPACE_HELP)
    .action(async (run: string | undefined, opts) => {
      try {
        const format = outputFormat(opts);
        const namespace = journalNamespace(opts);
        const kube = adminClient(opts);
        if (run) {
          const { text } = await fetchJournal(kube, namespace, run);
          process.stdout.write(format === 'yaml' ? formatted(JSON.parse(text), 'yaml') : terminalJson(text));
          return;
        }
        const journals = await listJournals(kube, namespace);
        const missing = journals.length === 0 ? await missingNamespace(kube, namespace) : undefined;
        if (missing) session.exitCode = fail(new Error(missing));
        else if (format) process.stdout.write(formatted(journals, format));
        else if (journals.length === 0)
          process.stderr.write(`no journal is kept in namespace '${namespace}'\n`);
        else process.stdout.write(redact(table(journals)));
        // A deployment that kept none is no silent gap: why, on stderr (--json's stdout stays the list).
        const kept = new Set(journals.map((j) => j.experiment));
        for (const { deployment, workload, why } of await missingJournals(kube, namespace, kept))
          process.stderr.write(terminalText(`${deployment} (${workload}) has no journal: ${why}\n`));
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
