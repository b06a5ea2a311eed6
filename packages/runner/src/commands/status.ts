// `chaoskit status`: the runs whose recorded changes are still in place.
import { redact } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { adminClient } from '../cluster/choice.js';
import { status } from '../records/status.js';
import { EXIT } from '../run/exit-codes.js';
import { ledgerNamespaceOf, withCluster, withLedgerNamespace } from './options.js';
import { outputFormat, withOutput } from './output.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withOutput(withLedgerNamespace(withCluster(program.command('status'))), 'the runs and their changes')
    .description('list the runs whose recorded changes are still in place, and what each changed')
    .option('-A, --all-namespaces', 'look for records in every namespace')
    .action(async (opts) => {
      try {
        const format = outputFormat(opts);
        const namespace = ledgerNamespaceOf(opts);
        session.exitCode = await status(
          adminClient(opts),
          { namespace: opts.allNamespaces ? null : namespace, ledgerNamespace: namespace, format },
          {
            out: (text) => process.stdout.write(format ? text : redact(text)),
            err: (text) => process.stderr.write(text),
          },
        );
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
