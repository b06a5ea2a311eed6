#!/usr/bin/env node
// The `chaoskit` command: the program, its commands (one file each in commands/), the options
// a user may give before the command as well, and the exit code (D89).
import { maskEnvironmentTargets } from '@chaoskit/core/runner';
import { Command } from 'commander';
import { fail, session } from './commands/session.js';
import { Refusal } from './errors.js';
import { EXIT } from './exit-codes.js';
import { shareOptions } from './shared-options.js';
import { RUNNER_VERSION } from './version.js';

const program = new Command()
  .name('chaoskit')
  .description('Run Chaos Toolkit-format chaos experiments with chaoskit activities.')
  .version(RUNNER_VERSION)
  .showHelpAfterError()
  .exitOverride()
  // What the environment says about the cluster is masked before any command prints a line.
  .hook('preAction', () => maskEnvironmentTargets());

// One line a command, in the order of `chaoskit --help`: each file defines its command on the program.
const commands = await Promise.all([
  import('./commands/run.js'),
  import('./commands/validate.js'),
  import('./commands/plan.js'),
  import('./commands/discover.js'),
  import('./commands/info.js'),
  import('./commands/schema.js'),
  import('./commands/status.js'),
  import('./commands/journals.js'),
  import('./commands/revert.js'),
  import('./commands/halt.js'),
  import('./commands/rbac.js'),
  import('./commands/deploy.js'),
  import('./commands/undeploy.js'),
  import('./commands/call.js'),
  import('./commands/init.js'),
  import('./commands/report.js'),
]);
for (const command of commands) command.register(program);

shareOptions(program, ['--namespace', '--context', '--kubeconfig', '--verbose', '--log-file']);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const code = (err as { exitCode?: number }).exitCode;
  // A Refusal here: a --log-file that cannot be written, before any command ran.
  if (err instanceof Refusal) session.exitCode = fail(err, EXIT.refused);
  else session.exitCode = code === undefined ? fail(err) : code === 0 ? EXIT.ok : EXIT.usage;
}
process.exitCode = session.exitCode;
