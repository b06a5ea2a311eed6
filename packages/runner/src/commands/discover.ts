// `chaoskit discover`: every installed activity, with its arguments and docs.
import type { AnyActivity } from '@chaoskit/core';
import type { Command } from 'commander';
import { installedActivities } from '../resolve-activity.js';
import { RUNNER_VERSION } from '../version.js';

function describe(a: AnyActivity) {
  return {
    module: a.module,
    name: a.name,
    type: a.kind,
    doc: a.doc,
    deprecated: a.deprecated,
    arguments: a.arguments,
    schema: a.jsonSchema(),
  };
}

export function register(program: Command): void {
  program
    .command('discover')
    .description('list every installed activity with its arguments, types, defaults and docs')
    .option('--json', "print JSON (with each activity's JSON Schema)")
    .action(async (opts: { json?: boolean }) => {
      const { activities, aliases, packages, missing, problems } = await installedActivities();
      if (opts.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              chaoskit: RUNNER_VERSION,
              activities: activities.map((a) => describe(a)),
              aliases: aliases.map((a) => ({
                module: a.module,
                name: a.name,
                activity: a.activity.qualifiedName,
              })),
              packages: packages.map((p) => ({ name: p.name, version: p.version, modules: p.modules })),
              not_installed: missing,
              problems,
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      for (const a of activities) {
        process.stdout.write(
          `${a.qualifiedName} (${a.kind})${a.deprecated ? ' [deprecated]' : ''}\n  ${a.doc}\n`,
        );
        for (const arg of a.arguments) {
          const dflt = 'default' in arg ? ` = ${JSON.stringify(arg.default)}` : ' (required)';
          process.stdout.write(`    ${arg.name}: ${arg.accepted}${dflt}\n`);
        }
      }
      if (aliases.length) {
        process.stdout.write('\nalso found as (the same activity under another module or name):\n');
        for (const a of aliases) process.stdout.write(`${a.qualifiedName} → ${a.activity.qualifiedName}\n`);
      }
      const extensions = packages.filter((p) => !p.name.startsWith('@chaoskit/'));
      if (extensions.length)
        process.stdout.write(
          `\nextensions: ${extensions.map((p) => `${p.name}@${p.version} (${p.modules.join(', ')})`).join('; ')}\n`,
        );
      if (missing.length) process.stdout.write(`\nnot installed: ${missing.join(', ')}\n`);
      for (const p of problems) process.stdout.write(`\nnot loaded: ${p.package}: ${p.problem}\n`);
    });
}
