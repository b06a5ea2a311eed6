// `chaoskit init`: scaffolds an experiment, asked on a terminal or from flags.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { installedActivities } from '../activities/resolve-activity.js';
import { askOnTerminal, buildExperiment, initFlags, renderExperiment } from '../init/init.js';
import { prepareExperiment } from '../prepare/prepare.js';
import { withLogging } from './options.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  // The activities of the flags, in command-line order.
  const init = initFlags();
  withLogging(program.command('init'))
    .description(
      'scaffold an experiment from the installed activities: asked on a terminal, or from the flags below',
    )
    .option('--experiment-path <path>', 'where to write it (.yaml, .yml: YAML; else JSON)')
    .option(
      '--discovery-path <path>',
      "Chaos Toolkit's: init offers every installed activity, what discover finds, so it reads no discovery",
    )
    .option('--title <title>', "the experiment's title (without it, init asks on the terminal)")
    .option('--description <text>', 'what the experiment checks')
    .option(
      '--probe <module.func>',
      'a steady-state probe (repeatable; --arg and --tolerance follow it)',
      init.probe,
    )
    .option(
      '--activity <module.func>',
      'a method activity (repeatable; --arg and --background follow it)',
      init.activity,
    )
    .option('--rollback <module.func>', 'a rollback action (repeatable; --arg follows it)', init.rollback)
    .option('--arg <key=value>', 'an argument of the activity before it (a JSON value, or text)', init.arg)
    .option(
      '--tolerance <value>',
      'the tolerance of the probe before it (JSON; default true)',
      init.tolerance,
    )
    .option('--background', 'run the activity before it in the background', init.background)
    .option('--force', 'overwrite the file if it exists')
    .action(async (opts) => {
      try {
        let scaffold: Parameters<typeof buildExperiment>[0];
        let path: string = opts.experimentPath ?? './experiment.json';
        if (opts.title === undefined) {
          if (!process.stdin.isTTY)
            throw new InvalidArgumentError(
              'init asks on a terminal, and stdin is not one: give --title, --description and the activities as flags',
            );
          const { activities } = await installedActivities();
          const answers = await askOnTerminal(
            activities,
            path,
            (there) =>
              opts.force ||
              !existsSync(there) ||
              `${there} exists; choose another path (or run with --force)`,
          );
          ({ path } = answers);
          scaffold = answers;
        } else {
          if (!opts.description) throw new InvalidArgumentError('--title needs --description too');
          scaffold = { title: opts.title, description: opts.description, activities: init.activities };
        }
        const experiment = await buildExperiment(scaffold);
        // What is written passes validate (D74's rails included).
        await prepareExperiment(structuredClone(experiment), {}, process.env);
        if (existsSync(path) && !opts.force)
          throw new InvalidArgumentError(`${path} exists; choose another --experiment-path, or --force`);
        await writeFile(path, renderExperiment(experiment, path));
        process.stderr.write(`Experiment created and saved in '${path}' (chaoskit validate ${path})\n`);
      } catch (err) {
        session.exitCode = fail(err);
      }
    });
}
