// What every activity of this package shares: the deprecation warning (once per process and
// activity, through the activity's log and stderr) and the delegation to the modern activity.

import {
  type Activity,
  type ActivityContext,
  type ActivityDefinition,
  type AnyActivity,
  type ArgsShape,
  type ArgumentProblem,
  defineActivity,
  InvalidArgument,
  isChaosError,
  type RbacRule,
  type RunCallOptions,
  SafetyRefusal,
} from '@chaoskit/core';

const warned = new Set<string>();

/** The warning's text: what is deprecated and what to use instead. */
export function deprecationMessage(name: string, replacement: string): string {
  return `${name} is deprecated and will be removed; use ${replacement} instead`;
}

/**
 * Warns that the running activity is deprecated, naming its replacement: the first time in this
 * process (or since `resetDeprecationWarnings`) only, through the activity's log and on stderr.
 */
export function warnDeprecated(replacement: string, ctx: Pick<ActivityContext, 'activity' | 'log'>): void {
  if (warned.has(ctx.activity.qualifiedName)) return;
  warned.add(ctx.activity.qualifiedName);
  const text = deprecationMessage(ctx.activity.name, replacement);
  ctx.log(text);
  process.stderr.write(`chaoskit: warning: ${text}\n`);
}

/**
 * Forgets which warnings were given, so that each is given once more: for a host that runs
 * several experiments in one process and wants the warnings once per run, and for tests.
 */
export function resetDeprecationWarnings(): void {
  warned.clear();
}

export interface DeprecatedDefinition<S extends ArgsShape, R>
  extends Omit<ActivityDefinition<S, R>, 'deprecated'> {
  /** What to use instead, e.g. `chaoscluster.deployment.actions.scale_deployment`. */
  replacement: string;
}

/** defineActivity, marked deprecated, warning once before it runs. */
export function defineDeprecated<S extends ArgsShape, R>(definition: DeprecatedDefinition<S, R>) {
  const { replacement, run, ...rest } = definition;
  return defineActivity<S, R>({
    ...rest,
    deprecated: replacement,
    run(args, ctx) {
      warnDeprecated(replacement, ctx);
      return run(args, ctx);
    },
  });
}

/**
 * A deprecated activity that takes the modern one's arguments as they are and forwards them:
 * its rules (cross-argument ones included), RBAC and result are the modern activity's.
 */
export function defineForwarding<S extends ArgsShape, R>(
  modern: Activity<S, R>,
  definition: Pick<ActivityDefinition<S, R>, 'name' | 'kind' | 'module' | 'doc' | 'returns'>,
) {
  return defineDeprecated({
    ...definition,
    args: { ...modern.schema.shape },
    check: (args) => modernProblem(modern, args),
    rbac: rulesOf(modern),
    replacement: modern.qualifiedName,
    run: (args, ctx) => delegate(modern, args, ctx),
  });
}

/**
 * A `check` hook that applies the modern activity's own validation (its cross-argument rules
 * included) to the arguments it will be given, so that `validate` refuses what the delegation
 * would, naming the deprecated activity.
 */
export function modernProblem<K extends string>(
  modern: AnyActivity,
  forwarded: unknown,
): ArgumentProblem<K> | undefined {
  try {
    modern.validate(forwarded);
    return undefined;
  } catch (err) {
    if (!isChaosError(err, 'InvalidArgument')) throw err;
    const refused = err as InvalidArgument;
    return refused.argument
      ? { argument: refused.argument as K, accepted: refused.accepted }
      : { accepted: refused.accepted, value: undefined };
  }
}

/** What a delegation passes on of the running call: who runs it, and the options of its calls. */
export type DelegatingContext = Pick<ActivityContext, 'activity' | 'callOptions'>;

/**
 * Runs the modern activity with `args` and this call's options (secrets, configuration,
 * signal, log, plan mode, the run's record and rails). A refusal of its arguments, or by a
 * safety rail, is reported as the running (deprecated) activity's own.
 */
export async function delegate<R>(
  modern: { call(raw: unknown, options?: RunCallOptions): Promise<R>; qualifiedName: string },
  args: unknown,
  ctx: DelegatingContext,
): Promise<R> {
  try {
    return await modern.call(args, ctx.callOptions);
  } catch (err) {
    const own = ctx.activity.qualifiedName;
    if (isChaosError(err, 'Refused') && (err as SafetyRefusal).activity === modern.qualifiedName) {
      const refusal = err as SafetyRefusal;
      throw new SafetyRefusal(own, refusal.rail, refusal.reason);
    }
    if (!isChaosError(err, 'InvalidArgument')) throw err;
    const refused = err as InvalidArgument;
    if (refused.activity !== modern.qualifiedName) throw err;
    throw new InvalidArgument({
      activity: own,
      ...(refused.argument ? { argument: refused.argument } : {}),
      accepted: refused.accepted,
      ...(refused.received !== undefined ? { received: refused.received } : {}),
    });
  }
}

/** The RBAC rules of activities, as one mutable list (the same rule may appear twice). */
export function rulesOf(...activities: AnyActivity[]): RbacRule[] {
  return activities.flatMap((a) =>
    a.rbac.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources], verbs: [...r.verbs] })),
  );
}
