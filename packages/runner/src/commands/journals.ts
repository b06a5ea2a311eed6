// `chaoskit journals`: the journals runs kept in the cluster (run --journal-to-cluster, which
// deploy's pods run with), or one of them whole (for `chaos report`, jq…).
import { redact } from '@chaoskit/core/runner';
import type { Command } from 'commander';
import { fetchJournal, type JournalSummary, listJournals } from '../journals/read.js';
import { adminClient } from './cluster-choice.js';
import { withCluster } from './options.js';
import { fail, session } from './session.js';

/** -n of `journals` and `report --from-cluster`: where the runs kept them. */
export const journalNamespace = (opts: { namespace?: string }) =>
  opts.namespace ?? process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default';

export const NAMESPACE_HELP =
  "the namespace the journals are kept in (the run's --ledger-namespace, a deployment's namespace; default $CHAOSKIT_LEDGER_NAMESPACE, else default)";

function table(journals: readonly JournalSummary[]): string {
  const rows = [
    ['RUN ID', 'EXPERIMENT', 'STATUS', 'STARTED', 'DEVIATED', 'DURATION'],
    ...journals.map((j) => [
      j.runId,
      j.experiment,
      `${j.status}${j.truncated ? ' (cut)' : ''}`,
      j.started,
      j.deviated ? 'yes' : 'no',
      j.duration === undefined ? '-' : `${j.duration.toFixed(1)}s`,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map(
      (r) =>
        `${r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}

export function register(program: Command): void {
  withCluster(program.command('journals'))
    .description(
      'list the journals runs kept in the cluster (run --journal-to-cluster, deployed runs), or print one of them',
    )
    .argument('[run]', 'print the journal of this run (its id, or latest) as JSON')
    .option('-n, --namespace <namespace>', NAMESPACE_HELP)
    .option('--json', 'print the list as JSON')
    .action(async (run: string | undefined, opts) => {
      try {
        const namespace = journalNamespace(opts);
        const kube = adminClient(opts);
        if (run) {
          process.stdout.write((await fetchJournal(kube, namespace, run)).text);
          return;
        }
        const journals = await listJournals(kube, namespace);
        if (opts.json) process.stdout.write(`${JSON.stringify(journals, null, 2)}\n`);
        else if (journals.length === 0)
          process.stderr.write(`no journal is kept in namespace '${namespace}'\n`);
        else process.stdout.write(redact(table(journals)));
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
