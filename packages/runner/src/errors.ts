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
