// `chaoskit explain D<n>`: the decision a message names by its number — where chaoskit does what
// Chaos Toolkit or the Python originals do not, why, and what to write instead — as the
// repository's docs/decisions.md says it (built into the command: no tarball holds that file).
import { type Command, InvalidArgumentError } from 'commander';
import { decision } from '../explain/decisions.js';
import { EXIT } from '../run/exit-codes.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  program
    .command('explain')
    .description(
      'print a decision that a message names by its number (D79): what chaoskit does, why, what to write instead',
    )
    .argument('<decision>', 'its number: D79, d79 or 79')
    .action((which: string) => {
      try {
        process.stdout.write(`${decision(which)}\n`);
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
