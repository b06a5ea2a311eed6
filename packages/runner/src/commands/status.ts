// `chaoskit status`: the runs whose recorded changes are still in place.
import { redact } from '@chaoskit/core/runner';
import type { Command } from 'commander';
import { status } from '../record-commands.js';
import { adminClient } from './cluster-choice.js';
import { ledgerNamespaceOption, withCluster } from './options.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withCluster(program.command('status'))
    .description('list the runs whose recorded changes are still in place, and what each changed')
    .addOption(ledgerNamespaceOption())
    .option('-A, --all-namespaces', 'look for records in every namespace')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      try {
        session.exitCode = await status(
          adminClient(opts),
          {
            namespace: opts.allNamespaces ? null : opts.ledgerNamespace,
            ledgerNamespace: opts.ledgerNamespace,
            json: opts.json === true,
          },
          {
            out: (text) => process.stdout.write(opts.json ? text : redact(text)),
            err: (text) => process.stderr.write(text),
          },
        );
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
