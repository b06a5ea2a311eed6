// `chaoskit info`: what is installed, as `chaos info` shows it; `info core`, `info extensions` and
// `info settings` are Chaos Toolkit's targets (D162).
import { type Command, InvalidArgumentError } from 'commander';
import { installedActivities } from '../activities/resolve-activity.js';
import { CHAOSLIB_VERSION, RUNNER_VERSION } from '../package/version.js';
import { EXIT } from '../run/exit-codes.js';
import { DEFAULT_SETTINGS, readSettings, shownSettings } from '../settings/settings-file.js';
import { withLogging } from './options.js';
import { columns, type Format, formatted, type OutputFlags, outputFormat, withOutput } from './output.js';
import { fail, session } from './session.js';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const TARGETS = ['core', 'extensions', 'settings'];

/** What `info <target>` shows: Chaos Toolkit's tables, or the structure asked for. */
async function target(name: string, format: Format | undefined, settingsPath: string): Promise<string> {
  if (name === 'core') {
    // The CLI, and the chaostoolkit-lib format its runs follow (D95), as `chaos info core` lists them.
    const core = [
      { name: 'CLI', version: RUNNER_VERSION },
      { name: 'Core library', version: CHAOSLIB_VERSION },
    ];
    return format
      ? formatted(core, format)
      : columns([['NAME', 'VERSION'], ...core.map((c) => [c.name, c.version])]);
  }
  if (name === 'extensions') {
    const { packages } = await installedActivities();
    const extensions = packages.map((p) => ({ name: p.name, version: p.version, modules: p.modules }));
    return format
      ? formatted(extensions, format)
      : columns([
          ['NAME', 'VERSION', 'MODULES'],
          ...extensions.map((e) => [e.name, e.version, e.modules.join(', ')]),
        ]);
  }
  const settings = readSettings(settingsPath);
  if (!settings) return `No settings file found at ${settingsPath}\n`;
  return formatted(shownSettings(settings), format ?? 'yaml');
}

export function register(program: Command): void {
  withLogging(withOutput(program.command('info'), 'the versions and packages'))
    .description("what is installed, as `chaos info` shows it: versions and each activity package's modules")
    .argument(
      '[target]',
      `one of Chaos Toolkit's: core (versions), extensions (the activity packages), settings (its settings file, values masked)`,
    )
    .action(async (name: string | undefined, opts: OutputFlags, command: Command) => {
      try {
        const format = outputFormat(opts);
        if (name !== undefined) {
          if (!TARGETS.includes(name))
            throw new InvalidArgumentError(`info: '${name}' is not a target: ${TARGETS.join(', ')}`);
          const settingsPath: string = command.optsWithGlobals().settings ?? DEFAULT_SETTINGS;
          process.stdout.write(await target(name, format, settingsPath));
          return;
        }
        const { packages, missing, problems } = await installedActivities();
        const info = {
          chaoskit: RUNNER_VERSION,
          node: process.versions.node,
          platform: `${process.platform}-${process.arch}`,
          packages: packages.map((p) => ({
            name: p.name,
            version: p.version,
            dir: p.dir,
            modules: p.modules,
            activities: p.activities.length,
            aliases: p.aliases.length,
          })),
          not_installed: missing,
          problems,
        };
        if (format) {
          process.stdout.write(formatted(info, format));
          return;
        }
        const lines = [`chaoskit ${info.chaoskit} on Node ${info.node} (${info.platform})`, ''];
        for (const p of info.packages)
          lines.push(
            `${p.name}@${p.version}: ${count(p.activities, 'activity', 'activities')}${p.aliases ? `, ${count(p.aliases, 'alias', 'aliases')}` : ''} in ${p.modules.join(', ')}`,
            `  ${p.dir}`,
          );
        if (missing.length) lines.push('', `not installed: ${missing.join(', ')}`);
        for (const p of problems) lines.push('', `not loaded: ${p.package}: ${p.problem}`);
        process.stdout.write(`${lines.join('\n')}\n`);
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
