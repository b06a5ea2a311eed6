// `chaoskit schema`: the JSON Schema of experiment files, for editors.
import type { Command } from 'commander';
import { experimentSchema } from '../experiment-format.js';
import { installedActivities } from '../resolve-activity.js';

export function register(program: Command): void {
  program
    .command('schema')
    .description(
      "print the JSON Schema of experiment files, with every installed activity's arguments (for editors)",
    )
    .action(async () => {
      const { activities, aliases } = await installedActivities();
      process.stdout.write(`${JSON.stringify(experimentSchema([...activities, ...aliases]), null, 2)}\n`);
    });
}
