// `chaoskit schema`: the JSON Schema of experiment files, for editors.
import type { Command } from 'commander';
import { installedActivities } from '../activities/resolve-activity.js';
import { experimentSchema } from '../experiment/format.js';
import { formatted, type OutputFlags, withOutput } from './output.js';

export function register(program: Command): void {
  withOutput(program.command('schema'), 'the schema (default JSON)', false)
    .description(
      "print the JSON Schema of experiment files, with every installed activity's arguments (for editors)",
    )
    .action(async (opts: OutputFlags) => {
      const { activities, aliases } = await installedActivities();
      process.stdout.write(formatted(experimentSchema([...activities, ...aliases]), opts.output ?? 'json'));
    });
}
