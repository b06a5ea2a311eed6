// `chaoskit journals`: the journals runs kept in the cluster (run --journal-to-cluster, which
// deploy's pods run with), or one of them whole (for `chaos report`, jq…).
import { redact } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { checkNamespace } from '../deploy/inputs.js';
import { EXIT } from '../exit-codes.js';
import { missingJournals } from '../journals/missing.js';
import { fetchJournal, type JournalSummary, listJournals } from '../journals/read.js';
import { terminalText, terminalValue } from '../terminal.js';
import { adminClient } from './cluster-choice.js';
import { withCluster } from './options.js';
import { fail, session } from './session.js';

/** -n of `journals` and `report --from-cluster`: where the runs kept them (checked before any request). */
export const journalNamespace = (opts: { namespace?: string }) =>
  checkNamespace(
    opts.namespace ?? process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default',
    opts.namespace === undefined ? 'CHAOSKIT_LEDGER_NAMESPACE' : '-n/--namespace',
  );

export const NAMESPACE_HELP =
  "the namespace the journals are kept in (the run's --ledger-namespace, a deployment's namespace; default $CHAOSKIT_LEDGER_NAMESPACE, else default)";

function table(journals: readonly JournalSummary[]): string {
  const rows = [
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
          // Valid JSON holds control characters only as escapes, C1 ones aside: those escaped
          // too, the same JSON, which no terminal obeys (D160).
          const { text } = await fetchJournal(kube, namespace, run);
          process.stdout.write(
            text.replace(/[\u0080-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
          );
          return;
        }
        const journals = await listJournals(kube, namespace);
        if (opts.json) process.stdout.write(`${JSON.stringify(journals, null, 2)}\n`);
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
