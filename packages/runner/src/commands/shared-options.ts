// Options a user may give before the command as well as after it (`chaoskit -n shop run x.yaml`,
// as kubectl takes its flags) (D97). Commander hands an option written before a subcommand to
// the program, so the program declares these too, and gives their values to the command that
// runs; a command that does not take one refuses it rather than ignoring it.
import { Command, Option } from 'commander';
import { withCluster, withLogging, withNamespace } from './options.js';

/**
 * The options named by `longFlags`, as the commands that take them declare them (the option
 * groups of commands/options.ts): known before any command is loaded, as only the command a line
 * names is (cli.ts).
 */
export function sharedOptions(longFlags: readonly string[]): Option[] {
  const template = withCluster(withNamespace(withLogging(new Command())));
  return longFlags.map((flag) => {
    const declared = template.options.find((o) => o.long === flag);
    if (!declared) throw new Error(`no option group declares ${flag}`);
    return declared;
  });
}

/**
 * Declares `shared` (sharedOptions) on `program`, with the commands' own description, and passes
 * what the program parsed on to the running command. Call it after the commands are defined.
 */
export function shareOptions(program: Command, shared: readonly Option[]): void {
  for (const declared of shared)
    program.addOption(new Option(declared.flags, `${declared.description} (before or after the command)`));
  program.hook('preAction', (_program, command) => {
    for (const option of shared) {
      const key = option.attributeName();
      const value = program.getOptionValue(key);
      if (value === undefined) continue;
      if (!command.options.some((o) => o.long === option.long)) {
        command.error(`error: chaoskit ${command.name()} does not take ${option.long}`, { exitCode: 2 });
      }
      command.setOptionValueWithSource(key, value, 'cli');
    }
  });
}
