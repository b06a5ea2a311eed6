import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** What expectAsDeclared reads of an activity. */
export interface DeclaredActivity {
  name: string;
  module: string;
  qualifiedName: string;
}

/**
 * A package's activities as the package itself declares them, with no list kept by hand (the
 * next activity needs no test edit): every `export const …Activity` of its source files is
 * exported by its index and among its `activities` (an activity whose line in activities.ts is
 * missing fails), each named `module.name`, and their modules are exactly those of package.json's
 * "chaoskit.modules" (which the runner loads by), each with an activity at least.
 * `testFile` is the calling test's `import.meta.url`, in the package's src/, beside its index.ts.
 */
export async function expectAsDeclared(testFile: string): Promise<void> {
  const src = dirname(fileURLToPath(testFile));
  const pkg = (await import(join(src, 'index.ts'))) as { activities: readonly DeclaredActivity[] } & Record<
    string,
    unknown
  >;
  const { chaoskit } = JSON.parse(readFileSync(join(src, '..', 'package.json'), 'utf8')) as {
    chaoskit: { modules: string[] };
  };
  const defined = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .flatMap((f) => [...readFileSync(join(src, f), 'utf8').matchAll(/export const (\w+Activity)\b/g)])
    .map((m) => m[1]!);
  expect(defined.length, 'activities defined in src/').toBeGreaterThan(0);
  const missing = defined.filter((name) => !pkg.activities.includes(pkg[name] as DeclaredActivity));
  expect(missing, 'defined but not among the exported activities').toEqual([]);
  for (const a of pkg.activities) expect(a.qualifiedName).toBe(`${a.module}.${a.name}`);
  const modules = [...new Set(pkg.activities.map((a) => a.module))].sort();
  expect(modules, 'the modules of the activities, as package.json declares them').toEqual(
    [...chaoskit.modules].sort(),
  );
}
