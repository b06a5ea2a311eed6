// `chaoskit revert`: undoes a run's recorded changes (those still in place).
import { postEvent, redact } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { adminClient } from '../cluster/choice.js';
import { jobFromEnv } from '../journals/job-events.js';
import { revert } from '../records/revert.js';
import { EXIT } from '../run/exit-codes.js';
import { collect, ledgerNamespaceOf, withCluster, withLedgerNamespace } from './options.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withLedgerNamespace(withCluster(program.command('revert')))
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
    .action(async (runId: string | undefined, opts) => {
      try {
        if (!runId && !opts.expired) throw new InvalidArgumentError('give a run id, or --expired');
        if (opts.dismiss && !runId) throw new InvalidArgumentError('--dismiss takes a run id');
        const namespace = ledgerNamespaceOf(opts);
        const kube = adminClient(opts);
        // In a Job (the reaper's, D122): what a sweep left alone is a Warning Event on it.
        const job = jobFromEnv(process.env, namespace);
        const notice = job
          ? (message: string) =>
              postEvent(kube, {
                reason: 'NotActedOn',
                type: 'Warning',
                action: 'Revert',
                regarding: { apiVersion: 'batch/v1', kind: 'Job', ...job },
                message: redact(message),
              }).catch((err: unknown) => {
                process.stderr.write(
                  `chaoskit: the Event on Job ${job.name} could not be written: ${redact((err as Error).message)}\n`,
                );
              })
          : undefined;
        session.exitCode = await revert(
          kube,
          runId,
          {
            namespace,
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
          notice,
        );
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
