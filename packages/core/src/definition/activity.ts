// What an activity is, whatever its arguments: the types `defineActivity` (define-activity.ts)
// derives from one definition, and how an activity is recognised among a module's exports.

import type { z } from 'zod';
import type { RbacRule } from '../transport/access.js';
import type {
  ActivityContext,
  ActivityIdentity,
  ActivityKind,
  CallOptions,
  RunCallOptions,
} from './activity-context.js';

/** The argument schemas of an activity: experiment argument name → zod schema. */
export type ArgsShape = z.core.$ZodShape;

export type ArgsSchema<S extends ArgsShape> = z.ZodObject<S, z.core.$strict>;

/** What an experiment (or a caller) may give: defaulted arguments are optional. */
export type ArgsInput<S extends ArgsShape> = z.input<ArgsSchema<S>>;

/** What `run` receives: validated, with every default applied. */
export type ArgsOutput<S extends ArgsShape> = z.output<ArgsSchema<S>>;

/** `label_selector` → `labelSelector`, at the type level (mirrors `camelCase` below). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** The same object type with its keys in camelCase; optional keys stay optional. */
export type CamelKeys<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The options object of an activity's camelCase export. */
export type ActivityOptions<S extends ArgsShape> = Simplify<CamelKeys<ArgsInput<S>> & CallOptions>;

/** The camelCase export: the options are optional when no argument is required. */
export type ActivityFn<S extends ArgsShape, R> =
  Record<never, never> extends CamelKeys<ArgsInput<S>>
    ? (options?: ActivityOptions<S>) => Promise<Awaited<R>>
    : (options: ActivityOptions<S>) => Promise<Awaited<R>>;

/**
 * A cross-argument rule broken, as returned by a definition's `check` hook. `value` is what
 * is shown as received; when absent, the value of `argument` is shown.
 */
export interface ArgumentProblem<K extends string = string> {
  argument?: K;
  accepted: string;
  value?: unknown;
}

export interface ActivityDefinition<S extends ArgsShape, R, K extends ActivityKind = ActivityKind> {
  /** The experiment function name, snake_case (`terminate_pods`). */
  name: string;
  kind: K;
  /** The experiment module (`chaoscluster.pod.actions`). */
  module: string;
  doc: string;
  /** What the activity returns, in words (for the README tables and `discover`). */
  returns?: string;
  /** Argument name (exactly as in experiments) → schema, with `.default()` and `.describe()`. */
  args: S;
  rbac: RbacRule[];
  /** `true`, or a note saying what to use instead. */
  deprecated?: boolean | string;
  /** Cross-argument rules, run inside `validate` after every argument is valid on its own. */
  check?: (args: ArgsOutput<S>) => ArgumentProblem<keyof ArgsOutput<S> & string> | undefined;
  run: (args: ArgsOutput<S>, ctx: ActivityContext) => R | Promise<R>;
}

/** Documentation of one argument, derived from its schema. */
export interface ArgumentInfo {
  name: string;
  camelName: string;
  required: boolean;
  /** Present only when the argument has a default. */
  default?: unknown;
  description: string | undefined;
  /** What is accepted, in words ("an integer from 1 to 100"). */
  accepted: string;
}

export type JsonSchema = Record<string, unknown>;

/** The shape shared by every activity, whatever its arguments: what a registry holds. */
export interface AnyActivity extends ActivityIdentity {
  readonly camelName: string;
  readonly doc: string;
  readonly returns: string | undefined;
  readonly schema: z.ZodObject<ArgsShape, z.core.$strict>;
  readonly arguments: readonly ArgumentInfo[];
  readonly rbac: readonly Readonly<RbacRule>[];
  readonly deprecated: boolean;
  readonly deprecationNote: string | undefined;
  /** Validates experiment arguments (snake_case); throws `InvalidArgument`. */
  validate(rawArgs: unknown): Record<string, unknown>;
  /** Validates, then runs. Nothing runs when the arguments are invalid. */
  call(rawArgs: unknown, options?: RunCallOptions): Promise<unknown>;
  /**
   * The namespaces validated arguments make an action change, by argument (none for a probe):
   * what the namespace rail checks before the action runs.
   */
  targetNamespaces(args: Record<string, unknown>): Array<{ argument: string; namespace: string }>;
  /** JSON Schema (draft 2020-12) of the arguments. */
  jsonSchema(): JsonSchema;
}

export interface Activity<S extends ArgsShape = ArgsShape, R = unknown, K extends ActivityKind = ActivityKind>
  extends AnyActivity {
  /** Kept literal in the type, so that typed surfaces (`@chaoskit/vitest`) tell actions from probes. */
  readonly kind: K;
  readonly schema: ArgsSchema<S>;
  validate(rawArgs: unknown): ArgsOutput<S>;
  call(rawArgs: unknown, options?: RunCallOptions): Promise<Awaited<R>>;
  /** The idiomatic TypeScript export: camelCase options, validated exactly like experiments. */
  readonly fn: ActivityFn<S, R>;
}

// Activities are recognised by a brand, not by `instanceof`: two copies of @chaoskit/core may
// be loaded side by side (independently versioned packages).
export const ACTIVITY = Symbol.for('chaoskit.activity');

/** Whether a value is an activity made by defineActivity. */
export function isActivity(value: unknown): value is AnyActivity {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ACTIVITY] === true;
}

/**
 * The activities among a module's exports, by qualified name: a package's `activities` list
 * comes from its exports, so adding an activity is adding its file and its `export *` line.
 */
export function activitiesIn(exports: Record<string, unknown>): readonly AnyActivity[] {
  return Object.freeze(
    Object.values(exports)
      .filter(isActivity)
      .sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0)),
  );
}

/** The result type of an activity. */
export type ResultOf<A> = A extends { call(raw: unknown, options?: CallOptions): Promise<infer R> }
  ? R
  : unknown;
