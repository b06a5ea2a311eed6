// `chaoskit validate`: checks an experiment and its activities' arguments, offline; told a
// cluster (--context, --kubeconfig) or a fleet (--contexts, --all-contexts), then each as a
// run's preflight would (D125).
import { isChaosError } from '@chaoskit/core';
import { redact } from '@chaoskit/core/runner';
import type { Command } from 'commander';
import { choosingActivities, useCluster } from '../cluster/choice.js';
import { recordsNamespaceOf } from '../fleet/contexts.js';
import { checkClusters } from '../preflight/preflight.js';
import { EXIT } from '../run/exit-codes.js';
import { contextsOf, isFleet, withContexts } from './fleet.js';
import {
  givenRecordsNamespace,
  ledgerNamespace,
  RECORDS_DEFAULT,
  withExperimentOptions,
  withVerifyTls,
} from './options.js';
import { prepareFrom } from './prepared-experiment.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withVerifyTls(
    withContexts(
      withExperimentOptions(program.command('validate')),
      "check a run's preflight",
      'the credentials, the rights of the activities and of the record, context by context',
    )
      .description(
        "check an experiment and every activity's arguments, without touching the cluster; given --context, --kubeconfig, --contexts or --all-contexts, also each cluster as a run would before its first change",
      )
      .argument('<experiment>', 'the experiment file or URL')
      .option(
        '--ledger-namespace <namespace>',
        `with a cluster: where the run's record would be kept (default ${RECORDS_DEFAULT})`,
      )
      .option('--no-ledger', 'with a cluster: the run would keep no record (its rights are not checked)'),
  ).action(async (file: string, opts) => {
    try {
      const prepared = await prepareFrom(file, opts);
      process.stdout.write('experiment syntax and semantic look valid\n');
      // Each cluster with the namespace its run would record in (D163), all checked before any request.
      const recording = opts.ledger !== false;
      let targets: Array<{ label: string; env?: NodeJS.ProcessEnv; namespace?: string }> = [];
      if (isFleet(opts)) {
        const named = recording
          ? givenRecordsNamespace(opts.ledgerNamespace, '--ledger-namespace')
          : undefined;
        targets = contextsOf(prepared, opts).map((c) => ({
          ...c,
          ...(recording ? { namespace: recordsNamespaceOf(c, named) } : {}),
        }));
      } else if (opts.context || opts.kubeconfig) {
        const env = useCluster(opts, choosingActivities(prepared));
        targets = [
          {
            label: 'the cluster',
            ...(env ? { env } : {}),
            ...(recording ? { namespace: ledgerNamespace(opts) } : {}),
          },
        ];
      }
      for (const context of targets) {
        try {
          await checkClusters(prepared, {
            ledgerNamespace: context.namespace,
            ...(context.env ? { env: context.env } : {}),
          });
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
