import { expect } from 'vitest';

/** What the activity tests read of an activity: its name and its arguments' documentation. */
export interface ActivityArguments {
  qualifiedName: string;
  arguments: readonly { name: string; required: boolean; default?: unknown }[];
}

/** An activity's arguments in a line: `name*` when required, `name=<default as JSON>` otherwise. */
export function argumentSignature(activity: ActivityArguments): string[] {
  return activity.arguments.map((arg) =>
    arg.required ? `${arg.name}*` : `${arg.name}=${JSON.stringify(arg.default)}`,
  );
}

/** Each activity's argumentSignature, by qualified name (`module.function`). */
export function argumentSignatures(activities: readonly ActivityArguments[]): Record<string, string[]> {
  return Object.fromEntries(activities.map((a) => [a.qualifiedName, argumentSignature(a)]));
}

export type Refusal = Error & { argument?: string; activity?: string; accepted?: string };

/**
 * `refusal(validate)`: the InvalidArgument that `validate` throws; the test fails when it throws
 * nothing or something else. Give it @chaoskit/core's `isChaosError` (this package does not
 * depend on core, which uses it for its own tests).
 */
export function refusals<E = Refusal>(
  isChaosError: (err: unknown, code: 'InvalidArgument') => boolean,
): (validate: () => unknown) => E {
  return (validate) => {
    try {
      validate();
    } catch (err) {
      expect(isChaosError(err, 'InvalidArgument')).toBe(true);
      return err as E;
    }
    throw new Error('expected InvalidArgument');
  };
}
