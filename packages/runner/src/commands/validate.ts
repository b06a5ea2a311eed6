// `chaoskit validate`: checks an experiment and its activities' arguments, offline.
import type { Command } from 'commander';
import { withLogging, withNamespace, withRails, withVars } from './options.js';
import { prepareFrom } from './prepared-experiment.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withNamespace(withLogging(withRails(withVars(program.command('validate')))))
    .description("check an experiment and every activity's arguments, without touching the cluster")
    .argument('<experiment>', 'the experiment file or URL')
    .action(async (file: string, opts) => {
      try {
        await prepareFrom(file, opts);
        process.stdout.write('experiment syntax and semantic look valid\n');
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
