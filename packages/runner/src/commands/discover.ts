// `chaoskit discover`: every installed activity, with its arguments and docs; given a package, as
// Chaos Toolkit's `chaos discover`, its discovery written for `init` (D162).
import { writeFile } from 'node:fs/promises';
import type { AnyActivity } from '@chaoskit/core';
import { type Command, InvalidArgumentError } from 'commander';
import { discovery } from '../activities/discovery.js';
import { installedActivities } from '../activities/resolve-activity.js';
import { RUNNER_VERSION } from '../package/version.js';
import { EXIT } from '../run/exit-codes.js';
import { withLogging } from './options.js';
import { formatted, type OutputFlags, outputFormat, withOutput } from './output.js';
import { fail, session } from './session.js';

interface DiscoverOptions extends OutputFlags {
  discoveryPath?: string;
}

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
  withLogging(
    withOutput(program.command('discover'), 'every activity (with its JSON Schema), or the discovery'),
  )
    .description('list every installed activity with its arguments, types, defaults and docs')
    .argument(
      '[package]',
      "as chaos discover: write this package's discovery (chaostoolkit-kubernetes, chaostoolkit-istio, or an installed npm package) to --discovery-path",
    )
    .option('--discovery-path <path>', "where a package's discovery is written (default ./discovery.json)")
    .option(
      '--no-system-info',
      "Chaos Toolkit's: chaoskit's discovery reads nothing of the system (system: null)",
    )
    .option('--no-install', "Chaos Toolkit's: chaoskit installs nothing (npm installs packages)")
    .action(async (pkg: string | undefined, opts: DiscoverOptions) => {
      let format: ReturnType<typeof outputFormat>;
      try {
        format = outputFormat(opts);
        if (pkg === undefined && opts.discoveryPath !== undefined)
          throw new InvalidArgumentError(
            '--discovery-path writes the discovery of a package: name it (chaostoolkit-kubernetes, …)',
          );
      } catch (err) {
        session.exitCode = fail(err, EXIT.usage);
        return;
      }
      const installed = await installedActivities();
      if (pkg !== undefined) {
        try {
          const found = discovery(installed, pkg);
          if (format) process.stdout.write(formatted(found, format));
          else {
            const path = opts.discoveryPath ?? './discovery.json';
            await writeFile(path, `${JSON.stringify(found, null, 2)}\n`);
            session.logger.info(`Discovery outcome saved in ${path}`);
          }
        } catch (err) {
          session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
        }
        return;
      }
      const { activities, aliases, packages, missing, problems } = installed;
      if (format) {
        const discovered = {
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
        };
        process.stdout.write(formatted(discovered, format));
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
