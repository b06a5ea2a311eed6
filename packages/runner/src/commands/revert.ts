// `chaoskit revert`: undoes a run's recorded changes (those still in place).
import { redact } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { revert } from '../record-commands.js';
import { adminClient } from './cluster-choice.js';
import { collect, ledgerNamespaceOption, withCluster } from './options.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withCluster(program.command('revert'))
    .description("undo a run's recorded changes (those still in place), refusing objects changed since")
    .argument('[run-id]', 'the run (chaoskit status lists them)')
    .option(
      '--expired',
      'revert every run whose changes have expired (--ledger-ttl of its run); asks first on a terminal',
    )
    .option('--force', 'also overwrite objects someone changed since the run')
    .option(
      '--allow-kind <plural.group>',
      'let the revert change objects of this kind that carries privilege (clusterrolebindings.rbac.authorization.k8s.io, namespaces, secrets …; repeatable)',
      collect,
      [],
    )
    .option(
      '--dismiss',
      "remove the run's record without undoing anything (after showing what it leaves in place)",
    )
    .option('-y, --yes', 'do not ask (revert --expired, --dismiss)')
    .addOption(ledgerNamespaceOption())
    .action(async (runId: string | undefined, opts) => {
      try {
        if (!runId && !opts.expired) throw new InvalidArgumentError('give a run id, or --expired');
        if (opts.dismiss && !runId) throw new InvalidArgumentError('--dismiss takes a run id');
        session.exitCode = await revert(
          adminClient(opts),
          runId,
          {
            namespace: opts.ledgerNamespace,
            expired: opts.expired === true,
            force: opts.force === true,
            allowKind: opts.allowKind,
            dismiss: opts.dismiss === true,
            yes: opts.yes === true,
          },
          {
            out: (text) => process.stdout.write(redact(text)),
            err: (text) => process.stderr.write(redact(text)),
          },
        );
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
