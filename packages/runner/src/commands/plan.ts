// `chaoskit plan`: what every action would touch, from server-side dry runs; with --contexts
// or --all-contexts, one plan per context of the fleet (D125).
import type { Command } from 'commander';
import { choosingActivities, useCluster } from '../cluster/choice.js';
import { formatPlan, type PlannedActivity, planExperiment } from '../plan/plan.js';
import { contextsOf, isFleet, withContexts } from './fleet.js';
import { withExperimentOptions } from './options.js';
import { formatted, outputFormat, withOutput } from './output.js';
import { prepareFrom } from './prepared-experiment.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withContexts(
    withOutput(withExperimentOptions(program.command('plan')), 'the plan'),
    'plan',
    'one plan per context, each called by its place (context 2)',
  )
    .description('show what every action would touch, with server-side dry runs: nothing changes')
    .argument('<experiment>', 'the experiment file or URL')
    .action(async (file: string, opts) => {
      const failed = (plan: PlannedActivity[]) => plan.some((p) => p.failed);
      try {
        const format = outputFormat(opts);
        // Structured output is for programs: the lines of what happens are debug lines then.
        const log = (line: string) => (format ? session.logger.debug : session.logger.info)(line);
        const prepared = await prepareFrom(file, opts);
        if (!isFleet(opts)) {
          const env = useCluster(opts, choosingActivities(prepared));
          const plan = await planExperiment(prepared, log, env);
          process.stdout.write(format ? formatted(plan, format) : formatPlan(plan));
          if (failed(plan)) session.exitCode = 1;
          return;
        }
        // One context after the other: a plan's dry runs are light, its lines in order.
        const plans: Array<{ context: string; plan: PlannedActivity[] }> = [];
        for (const context of contextsOf(prepared, opts)) {
          const plan = await planExperiment(
            prepared,
            (line) => log(`[${context.label}] ${line}`),
            context.env,
          );
          plans.push({ context: context.label, plan });
          if (!format)
            process.stdout.write(
              `${context.label}${failed(plan) ? ' · WOULD FAIL' : ''}\n${formatPlan(plan)}`,
            );
        }
        if (format) process.stdout.write(formatted({ contexts: plans }, format));
        if (plans.some((p) => failed(p.plan))) session.exitCode = 1;
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
