// `chaoskit plan`: what every action would touch, from server-side dry runs.
import type { Command } from 'commander';
import { formatPlan, planExperiment } from '../plan.js';
import { choosingActivities, useCluster } from './cluster-choice.js';
import { withCluster, withLogging, withNamespace, withRails, withVars } from './options.js';
import { prepareFrom } from './prepared-experiment.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withCluster(withNamespace(withLogging(withRails(withVars(program.command('plan'))))))
    .description('show what every action would touch, with server-side dry runs: nothing changes')
    .argument('<experiment>', 'the experiment file or URL')
    .option('--json', 'print the plan as JSON')
    .action(async (file: string, opts) => {
      try {
        const prepared = await prepareFrom(file, opts);
        useCluster(opts, choosingActivities(prepared));
        const plan = await planExperiment(prepared, (line) =>
          (opts.json ? session.logger.debug : session.logger.info)(line),
        );
        process.stdout.write(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
        if (plan.some((p) => p.failed)) session.exitCode = 1;
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
