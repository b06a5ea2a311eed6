// The options of Chaos Toolkit's `chaos` itself, which scripts give before the command (D162),
// so that `alias chaos=chaoskit` keeps them working: each does what it does there, or nothing
// where chaoskit already behaves as it asks.
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { Refusal } from '../output/errors.js';

/** `chaos`'s own options, as the program declares them (before the command, where Chaos Toolkit takes them). */
export function chaosToolkitOptions(): Option[] {
  return [
    new Option(
      '--no-version-check',
      "Chaos Toolkit's: chaoskit never looks for a newer version, so nothing to turn off",
    ),
    new Option(
      '--change-dir <dir>',
      'change to this directory before the command runs (a relative --log-file stays where it was typed)',
    ),
    new Option('--no-log-file', 'write no log file: what chaoskit does unless --log-file asks for one'),
    new Option(
      '--log-file-level <level>',
      'the lowest level of the lines --log-file receives (default debug)',
    ).choices(['debug', 'info', 'warning', 'error']),
    new Option(
      '--log-format <format>',
      'the lines on stderr: string (text), or json (a JSON object a line: time, level, message)',
    ).choices(['string', 'json']),
    new Option(
      '--settings <path>',
      "Chaos Toolkit's settings file (default ~/.chaostoolkit/settings.yaml): run applies its controls and runtime strategies; settings and info settings read it",
    ),
  ];
}

/**
 * Declares `options` (chaosToolkitOptions) on the program, after the shared ones (`--no-log-file`
 * pairs with the shared `--log-file`), and moves to `--change-dir`'s directory before the command
 * runs. The other options are read where they apply (withLogging, the settings file).
 */
export function addChaosToolkitOptions(program: Command, options: readonly Option[]): void {
  for (const option of options) program.addOption(option);
  program.hook('preAction', (_program, command) => {
    const dir: string | undefined = program.opts().changeDir;
    if (dir === undefined) return;
    // Chaos Toolkit opens its log file before it moves: a relative --log-file is where it was typed.
    const logFile = command.getOptionValue('logFile');
    if (typeof logFile === 'string') command.setOptionValue('logFile', resolve(logFile));
    try {
      process.chdir(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'no such directory'
          : code === 'ENOTDIR'
            ? 'not a directory'
            : (err as Error).message;
      throw new Refusal(`--change-dir '${dir}': ${why}`);
    }
  });
}
