// `chaoskit call`: runs one activity and prints its result, for process providers and scripts.
import { redactValue } from '@chaoskit/core/runner';
import type { Command } from 'commander';
import { resolveActivity } from '../activities/resolve-activity.js';
import { CHOOSERS, useCluster } from '../cluster/choice.js';
import { invokeActivity } from '../run/invoke.js';
import { withCluster, withLogging, withNamespace } from './options.js';
import { formatted, withOutput } from './output.js';
import { fail, session } from './session.js';

function parseJson(text: string, option: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw new Error(`${option} takes a JSON object, got ${text}`);
}

export function register(program: Command): void {
  withOutput(
    withCluster(withNamespace(withLogging(program.command('call')))),
    'the result (default: one line of JSON)',
    false,
  )
    .description('run one activity and print its result as JSON (for process providers and scripts)')
    .argument('<module>', 'e.g. chaoscluster.pod.actions')
    .argument('<func>', 'e.g. terminate_pods')
    .option('--arguments <json>', 'the arguments, as a JSON object', '{}')
    .option('--secrets <json>', 'the secrets, as a flat JSON object (CLUSTER_CONTEXT, …)', '{}')
    .action(async (module: string, func: string, opts) => {
      try {
        const activity = await resolveActivity(module, func).catch((err: Error) => {
          throw new Error(`module '${module}' ${err.message}`);
        });
        const args = parseJson(opts.arguments, '--arguments');
        const secrets = parseJson(opts.secrets, '--secrets');
        if (opts.namespace && !('ns' in args) && activity.arguments.some((a) => a.name === 'ns'))
          args.ns = opts.namespace;
        const env = useCluster(opts, CHOOSERS.some((key) => key in secrets) ? ['--secrets'] : []);
        const result = await invokeActivity(activity, args, {
          secrets,
          log: (line) => session.logger.info(line),
          ...(env ? { env } : {}),
        });
        const value = redactValue(result ?? null);
        process.stdout.write(opts.output ? formatted(value, opts.output) : `${JSON.stringify(value)}\n`);
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
