// `chaoskit rbac`: the Role that experiments or activities need, from their definitions.
import type { AnyActivity } from '@chaoskit/core';
import { type Command, InvalidArgumentError } from 'commander';
import { dump } from 'js-yaml';
import { resolveActivity } from '../activities/resolve-activity.js';
import { loadExperiment } from '../experiment/load.js';
import { LEVER_NOTE, leverManifests } from '../guards/lever-policy.js';
import { experimentActivities } from '../prepare/prepare.js';
import { roleFor } from '../rbac/rbac.js';
import { EXIT } from '../run/exit-codes.js';
import { type OutputFlags, printObjects, withOutput } from './output.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withOutput(program.command('rbac'), 'the objects, without their comments (default: YAML with them)', false)
    .description(
      'print the Role (or ClusterRole) that experiments or activities (module.func) need, from their definitions',
    )
    .argument('[targets...]', 'experiment files, or activities as module.func (chaosk8s names too)')
    .option('--name <name>', 'the name of the role', 'chaoskit')
    .option(
      '--journal-to-cluster',
      'also the Role a run --journal-to-cluster needs (its journal, the Events on its Job), as deploy binds it',
    )
    .option(
      '--halt',
      'the halt lever instead: the admission policy that lets only who may halt set it and only who may resume lift it, and their ClusterRoles',
    )
    .action(
      async (
        targets: string[],
        opts: OutputFlags & { name: string; journalToCluster?: boolean; halt?: boolean },
      ) => {
        try {
          if (opts.halt) {
            if (targets.length)
              throw new InvalidArgumentError('--halt prints the lever alone: give no targets');
            if (opts.output) printObjects(leverManifests(), opts.output);
            else
              process.stdout.write(
                `${LEVER_NOTE.join('\n')}\n${leverManifests()
                  .map((m) => dump(m, { lineWidth: 120 }))
                  .join('---\n')}`,
              );
            return;
          }
          if (targets.length === 0)
            throw new InvalidArgumentError('give experiment files or activities (module.func), or --halt');
          const found: AnyActivity[] = [];
          for (const target of targets) {
            if (/\.(json|ya?ml)$/i.test(target)) {
              found.push(...(await experimentActivities(await loadExperiment(target))));
            } else {
              const cut = target.lastIndexOf('.');
              if (cut <= 0) throw new Error(`${target}: an experiment file or an activity as module.func`);
              const [module, func] = [target.slice(0, cut), target.slice(cut + 1)];
              found.push(
                await resolveActivity(module, func).catch((err: Error) => {
                  throw new Error(`module '${module}' ${err.message}`);
                }),
              );
            }
          }
          const { yaml, role, ...more } = roleFor(found, opts.name, {
            journal: opts.journalToCluster === true,
          });
          if (opts.output) printObjects([role, ...Object.values(more)], opts.output);
          else process.stdout.write(yaml);
        } catch (err) {
          session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
        }
      },
    );
}
