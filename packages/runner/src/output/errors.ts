import { ChaosError } from '@chaoskit/core';

/** The experiment file is missing, unreadable, malformed or inconsistent. */
export class InvalidExperiment extends ChaosError {
  readonly problems: string[];

  constructor(problems: string[] | string) {
    const list = Array.isArray(problems) ? problems : [problems];
    super(
      'InvalidExperiment',
      list.length === 1 ? list[0]! : `${list.length} problems:\n- ${list.join('\n- ')}`,
    );
    this.problems = list;
  }
}

/**
 * A command refused to start: what it needs is missing (a file it cannot write, a cluster it
 * cannot reach, a right it does not hold), and nothing was done. Its message is not masked
 * yet: the command shows back what the user typed on its command line (D90).
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';
}
