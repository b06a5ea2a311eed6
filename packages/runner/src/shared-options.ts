// Options a user may give before the command as well as after it (`chaoskit -n shop run x.yaml`,
// as kubectl takes its flags) (D97). Commander hands an option written before a subcommand to
// the program, so the program declares these too, and gives their values to the command that
// runs; a command that does not take one refuses it rather than ignoring it.
import { type Command, Option } from 'commander';

/**
 * Declares on `program` the options of its commands named by `longFlags` (once each, with the
 * commands' own description), and passes what the program parsed on to the running command.
 * Call it after every command is defined.
 */
export function shareOptions(program: Command, longFlags: readonly string[]): void {
  const shared: Option[] = [];
  for (const flag of longFlags) {
    const declared = program.commands.flatMap((c) => c.options).find((o) => o.long === flag);
    if (!declared) throw new Error(`no command declares ${flag}`);
    shared.push(declared);
    program.addOption(new Option(declared.flags, `${declared.description} (before or after the command)`));
  }
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
