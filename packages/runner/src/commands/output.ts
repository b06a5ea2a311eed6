// `-o json|yaml` on every command that prints structured output, as kubectl's `-o` (D163);
// a command's `--json` stays, as `-o json`.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { FORMATS, type Format } from '../output/formats.js';

export interface OutputFlags {
  output?: Format;
  json?: boolean;
}

/** -o/--output (and --json, unless the command's own --json means more) for `what` the command prints. */
export function withOutput(command: Command, what: string, json = true): Command {
  command.addOption(new Option('-o, --output <format>', `print ${what} as JSON or YAML`).choices(FORMATS));
  return json ? command.option('--json', 'the same as -o json') : command;
}

/** The format asked for, if any; --json with -o yaml is refused, before any request. */
export function outputFormat(opts: OutputFlags): Format | undefined {
  if (opts.json && opts.output === 'yaml')
    throw new InvalidArgumentError('--json and -o yaml ask for two formats: give one');
  return opts.output ?? (opts.json ? 'json' : undefined);
}

export { columns, FORMATS, type Format, formatted, printObjects, terminalJson } from '../output/formats.js';
