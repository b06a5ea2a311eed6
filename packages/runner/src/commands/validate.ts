// `chaoskit validate`: checks an experiment and its activities' arguments, offline; with
// --contexts or --all-contexts, then each context as a run's preflight would (D125).
import { isChaosError } from '@chaoskit/core';
import { redact } from '@chaoskit/core/runner';
import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { checkClusters } from '../preflight.js';
import { contextsOf, isFleet, withContexts } from './fleet.js';
import { ledgerNamespace, withLogging, withNamespace, withRails, withVars } from './options.js';
import { prepareFrom } from './prepared-experiment.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withContexts(
    withNamespace(withLogging(withRails(withVars(program.command('validate'))))),
    "check a run's preflight",
    'the credentials, the rights of the activities and of the record, context by context',
  )
    .description(
      "check an experiment and every activity's arguments, without touching the cluster (with --contexts or --all-contexts, also each context as a run would before its first change)",
    )
    .argument('<experiment>', 'the experiment file or URL')
    .option(
      '--kubeconfig <path>',
      'with --contexts: the kubeconfig of the contexts (default: CLUSTERCONFIG, KUBECONFIG, ~/.kube/config)',
    )
    .option(
      '--ledger-namespace <namespace>',
      "with --contexts: where the run's record would be kept (default $CHAOSKIT_LEDGER_NAMESPACE, else default)",
    )
    .option('--no-ledger', 'with --contexts: the run would keep no record (its rights are not checked)')
    .action(async (file: string, opts) => {
      try {
        const prepared = await prepareFrom(file, opts);
        process.stdout.write('experiment syntax and semantic look valid\n');
        if (!isFleet(opts)) return;
        const namespace = opts.ledger === false ? undefined : ledgerNamespace(opts);
        for (const context of contextsOf(prepared, opts)) {
          try {
            await checkClusters(prepared, { ledgerNamespace: namespace, env: context.env });
            process.stdout.write(`${context.label}: ready: a run would start\n`);
          } catch (err) {
            const message = isChaosError(err) ? err.message : ((err as Error).message ?? String(err));
            process.stdout.write(`${context.label}: a run would be refused: ${redact(message)}\n`);
            session.exitCode = EXIT.refused;
          }
        }
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
