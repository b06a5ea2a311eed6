// The `chaoskit` command: the program, its commands (one file each in commands/), the options
// a user may give before the command as well, and the exit code (D89).
import { maskEnvironmentTargets, onConnectionNotice } from '@chaoskit/core/runner';
import { Command, type Option } from 'commander';
import { addChaosToolkitOptions, chaosToolkitOptions } from './commands/chaos-toolkit.js';
import { fail, session } from './commands/session.js';
import { sharedOptions, shareOptions } from './commands/shared-options.js';
import { Refusal } from './output/errors.js';
import { RUNNER_VERSION } from './package/version.js';
import { EXIT } from './run/exit-codes.js';

// One line a command module, in the order of `chaoskit --help`: each file defines its commands on
// the program. Only the module of the command the line names is loaded, with what it imports
// (D152): loading all sixteen cost every start about 75 ms of CPU. A line that names none
// (`--help`, `help`, a typo) loads them all, for the whole help and commander's suggestions.
export const COMMANDS: ReadonlyArray<
  [names: readonly string[], load: () => Promise<{ register(p: Command): void }>]
> = [
  [['run'], () => import('./commands/run.js')],
  [['validate'], () => import('./commands/validate.js')],
  [['plan'], () => import('./commands/plan.js')],
  [['discover'], () => import('./commands/discover.js')],
  [['info'], () => import('./commands/info.js')],
  [['schema'], () => import('./commands/schema.js')],
  [['explain'], () => import('./commands/explain.js')],
  [['status'], () => import('./commands/status.js')],
  [['journals'], () => import('./commands/journals.js')],
  [['revert'], () => import('./commands/revert.js')],
  [['halt', 'resume'], () => import('./commands/halt.js')],
  [['rbac'], () => import('./commands/rbac.js')],
  [['image'], () => import('./commands/image.js')],
  [['deploy'], () => import('./commands/deploy.js')],
  [['undeploy'], () => import('./commands/undeploy.js')],
  [['call'], () => import('./commands/call.js')],
  [['init'], () => import('./commands/init.js')],
  [['report'], () => import('./commands/report.js')],
  [['settings'], () => import('./commands/settings.js')],
];

/**
 * The command the line names: its first word that is not an option or a program option's value,
 * when it is one of chaoskit's commands; undefined for a line that asks for the program's help
 * before naming one.
 */
function commandOnLine(args: readonly string[], programOptions: readonly Option[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help' || arg === '--') return undefined;
    if (!arg.startsWith('-')) return COMMANDS.some(([names]) => names.includes(arg)) ? arg : undefined;
    const option = programOptions.find((o) => o.long === arg || o.short === arg);
    if (option && (option.required || option.optional)) i++;
  }
  return undefined;
}

const shared = sharedOptions(['--namespace', '--context', '--kubeconfig', '--verbose', '--log-file']);

/** Runs the command line `argv` (node, script, arguments…); its exit code is process.exitCode. */
export async function main(argv: readonly string[]): Promise<void> {
  const program = new Command()
    .name('chaoskit')
    .description('Run Chaos Toolkit-format chaos experiments with chaoskit activities.')
    .version(RUNNER_VERSION)
    .showHelpAfterError()
    .exitOverride()
    // What the environment says about the cluster is masked before any command prints a line;
    // a cluster that stops answering is said to be retried, on the command's log.
    .hook('preAction', () => {
      maskEnvironmentTargets();
      onConnectionNotice((line) => session.logger.warn(line));
    });
  const chaosOptions = chaosToolkitOptions();
  const named = commandOnLine(argv.slice(2), [...shared, ...chaosOptions]);
  const modules = await Promise.all(
    COMMANDS.filter(([names]) => !named || names.includes(named)).map(([, load]) => load()),
  );
  for (const module of modules) module.register(program);
  shareOptions(program, shared);
  addChaosToolkitOptions(program, chaosOptions);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    const code = (err as { exitCode?: number }).exitCode;
    // A Refusal here: a --log-file that cannot be written, before any command ran.
    if (err instanceof Refusal) session.exitCode = fail(err, EXIT.refused);
    else session.exitCode = code === undefined ? fail(err) : code === 0 ? EXIT.ok : EXIT.usage;
  }
  process.exitCode = session.exitCode;
}
