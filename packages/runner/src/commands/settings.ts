// `chaoskit settings`: Chaos Toolkit's `chaos settings` (D162) — show, get, set and remove keys of
// its settings file (`--settings`, before the command; default ~/.chaostoolkit/settings.yaml),
// values shown masked.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { EXIT } from '../run/exit-codes.js';
import {
  DEFAULT_SETTINGS,
  locate,
  readSettings,
  type Settings,
  saveSettings,
  shownSettings,
  valueAt,
} from '../settings/settings-file.js';
import { withLogging } from './options.js';
import { type Format, formatted } from './output.js';
import { fail, session } from './session.js';

const KEY_HELP =
  'a dotted path in the settings (runtime.rollbacks.strategy, auths.example\\.com.type, controls[0])';

/** The settings file the command line names, and what it holds; an error when there is none. */
function settingsOf(command: Command): { path: string; settings: Settings } {
  const path: string = command.optsWithGlobals().settings ?? DEFAULT_SETTINGS;
  const settings = readSettings(path);
  if (!settings) throw new Error(`no settings file at ${path} (--settings names another)`);
  return { path, settings };
}

function located(settings: Settings, key: string, path: string) {
  const found = locate(settings, key);
  if (!found) throw new Error(`the settings file ${path} has no key ${key}`);
  return found;
}

/** --format, as `chaos settings` names it, or kubectl's -o. */
const formatOption = (formats: readonly string[]) =>
  new Option('-o, --format <format>', 'the output format (default yaml)').choices(formats);

/** Runs a subcommand's action, its errors said with their exit code. */
const act =
  <A extends unknown[]>(action: (...args: A) => void) =>
  (...args: A) => {
    try {
      action(...args);
    } catch (err) {
      session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
    }
  };

export function register(program: Command): void {
  const settings = program
    .command('settings')
    .description(
      "read, set or remove keys of Chaos Toolkit's settings file (--settings before the command names it)",
    );
  withLogging(settings.command('show'))
    .description(
      'print the whole settings file, its values masked (***) but the runtime and what names things',
    )
    .addOption(formatOption(['json', 'yaml']))
    .action(
      act((opts: { format?: Format }, command: Command) => {
        const { settings } = settingsOf(command);
        process.stdout.write(formatted(shownSettings(settings), opts.format ?? 'yaml'));
      }),
    );
  withLogging(settings.command('get'))
    .description('print one value of the settings file, masked as show masks it')
    .argument('<key>', KEY_HELP)
    .addOption(formatOption(['string', 'json', 'yaml']))
    .action(
      act((key: string, opts: { format?: Format | 'string' }, command: Command) => {
        const { path, settings } = settingsOf(command);
        const value = valueAt(located(shownSettings(settings) as Settings, key, path));
        const format = opts.format ?? 'yaml';
        process.stdout.write(format === 'string' ? `${String(value)}\n` : formatted(value, format));
      }),
    );
  withLogging(settings.command('set'))
    .description('set the value of an existing key of the settings file')
    .argument('<key>', KEY_HELP)
    .argument('<value>', 'the value, as JSON ("text", 3, true, {"a": 1})')
    .action(
      act((key: string, text: string, _opts: unknown, command: Command) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new InvalidArgumentError(
            `settings set ${key}: the value is JSON ('"text"', 3, true, {"a": 1}), got ${text}`,
          );
        }
        const { path, settings } = settingsOf(command);
        const found = located(settings, key, path);
        (found.parent as Record<string | number, unknown>)[found.at] = value;
        saveSettings(path, settings);
      }),
    );
  withLogging(settings.command('remove'))
    .description('remove a key of the settings file, and what it holds')
    .argument('<key>', KEY_HELP)
    .action(
      act((key: string, _opts: unknown, command: Command) => {
        const { path, settings } = settingsOf(command);
        const found = located(settings, key, path);
        if (Array.isArray(found.parent)) found.parent.splice(found.at as number, 1);
        else delete found.parent[found.at];
        saveSettings(path, settings);
      }),
    );
}
