// An experiment prepared for `validate`, `plan` and `run`: checked against the format, its
// configuration and secrets resolved, every activity found and its arguments checked, its js
// controls loaded — without a single request to the cluster.
import { type AnyActivity, Safety, type SafetyOptions } from '@chaoskit/core';
import {
  findUndefinedReferences,
  type ResolvedSecrets,
  resolveConfiguration,
  resolveSecrets,
  secretsFor,
  substitute,
} from '@chaoskit/core/runner';
import { type Lookup, resolveActivity } from '../activities/resolve-activity.js';
import {
  type ControlModule,
  controlProblems,
  loadControls,
  unrunnableControls,
} from '../controls/controls.js';
import { topControls } from '../controls/declared.js';
import { type SafeguardProbe, safeguardProbes, safeguardProblems } from '../controls/safeguards.js';
import { experimentTracing } from '../controls/tracing.js';
import {
  type Activity,
  type Experiment,
  experimentFormat,
  formatProblems,
  MAX_PAUSE_SECONDS,
  pauseProblem,
} from '../experiment/format.js';
import { keyFindings } from '../experiment/keys.js';
import { experimentDir } from '../experiment/load.js';
import { type RailFlags, railsOf, skippedControls } from '../experiment/rails.js';
import type { Json } from '../experiment/raw.js';
import { activitiesOf, isObject, placedActivities } from '../experiment/raw.js';
import { type Referable, referable } from '../experiment/refs.js';
import type { Vars } from '../experiment/vars.js';
import { experimentWarnings } from '../experiment/warnings.js';
import { InvalidExperiment } from '../output/errors.js';
import { validateHttpProvider } from '../providers/http.js';
import { validateProcessProvider } from '../providers/process.js';
import type { OtlpChoice } from '../telemetry/config.js';
import { validateTolerance } from '../tolerance/tolerance.js';

export type { Activity, Experiment, Hypothesis, Step } from '../experiment/format.js';
export type { Json } from '../experiment/raw.js';
export type { Vars } from '../experiment/vars.js';

/** Where activity packages are looked for first: the experiment file's directory, when it has one. */
export function lookupFor(raw: Json): Lookup {
  const dir = experimentDir(raw);
  return dir ? { experimentDir: dir } : {};
}

export interface Prepared {
  experiment: Experiment;
  /** The experiment's js controls, loaded, by name (D81). */
  controls: Map<string, ControlModule>;
  /** The probes of its safeguards controls (D127), but those skipped by name. */
  safeguards: SafeguardProbe[];
  /** What its tracing control asks of the run's traces (D132). */
  tracing?: OtlpChoice;
  /**
   * What the experiment declares that chaoskit does not act on (Python controls, others'
   * extensions, `dry` keys), and, under `--no-validation`, the problems validation found.
   */
  warnings: string[];
  configuration: Json;
  secrets: ResolvedSecrets;
  /** The chaoskit activity behind every python-provider activity, by its object. */
  activities: Map<Activity, AnyActivity>;
  /** The run's safety rails: the experiment's chaoskit extension and the command line. */
  rails: SafetyOptions;
}

/** What `validate`, `plan` and `run` take from the command line besides the rails. */
export interface PrepareFlags extends RailFlags {
  /**
   * `-n`: the `ns` of every activity that takes one and is not given one by the experiment
   * (D83). The experiment is changed in place, so its journal shows the namespace used.
   */
  namespace?: string;
  /**
   * `--no-validation` (false): the problems found become warnings and the run goes on; an
   * activity that cannot run fails when its turn comes (its arguments are still checked then).
   */
  validation?: boolean;
}

/**
 * Checks the experiment against the format (experiment/format.ts), resolves its configuration
 * and secrets (from the environment), and validates every activity's arguments with the
 * activity's own schema, and every action's namespaces against the rails — without a single
 * request to the cluster. Every problem is collected; InvalidExperiment lists them all.
 */
export async function prepareExperiment(
  raw: Json,
  vars: Vars = {},
  env: NodeJS.ProcessEnv = process.env,
  flags: PrepareFlags = {},
): Promise<Prepared> {
  if (!isObject(raw) || Object.keys(raw).length === 0)
    throw new InvalidExperiment('an empty experiment is not an experiment');
  const validation = flags.validation !== false;
  const parsed = experimentFormat().safeParse(raw);
  const problems: string[] = parsed.success ? [] : formatProblems(raw, parsed.error);
  const keys = keyFindings(raw);
  problems.push(...keys.errors);
  const experiment = raw as Experiment;

  // A value that cannot be resolved (an environment variable not set) is said once: the names
  // it declares still count as declared for the activities that use them.
  const declared = new Set<string>();
  let configuration: Json = {};
  try {
    if (isObject(experiment.configuration) || experiment.configuration === undefined)
      configuration = resolveConfiguration(
        experiment.configuration ?? {},
        vars.configuration ?? {},
        env,
      ) as Json;
  } catch (err) {
    problems.push((err as Error).message);
    for (const name of Object.keys({ ...experiment.configuration, ...vars.configuration }))
      declared.add(name);
  }
  let secrets: ResolvedSecrets = {};
  let groups: string[] | undefined;
  try {
    if (isObject(experiment.secrets) || experiment.secrets === undefined)
      secrets = resolveSecrets(experiment.secrets ?? {}, env, vars.secrets ?? {});
  } catch (err) {
    problems.push((err as Error).message);
    const all = { ...(isObject(experiment.secrets) ? experiment.secrets : {}), ...vars.secrets };
    groups = Object.keys(all);
    for (const group of Object.values(all))
      if (isObject(group)) for (const k of Object.keys(group)) declared.add(k);
  }

  const activities = new Map<Activity, AnyActivity>();
  const rails = railsOf(parsed.success ? experiment.extensions : undefined, flags);
  const safety = new Safety(rails);
  const placed = placedActivities(raw);

  const context: CheckContext = {
    configuration,
    secrets,
    unresolved: declared,
    groups: groups ?? Object.keys(secrets),
    named: referable(raw),
    activities,
    safety,
    ...(flags.namespace ? { namespace: flags.namespace } : {}),
    lookup: lookupFor(raw),
  };
  for (const { activity, phase, where } of placed) {
    problems.push(...(await checkActivity(activity, where, context)));
    if (phase !== 'hypothesis') continue;
    if (!('tolerance' in activity)) problems.push(`${where}: a hypothesis probe must have a tolerance`);
    else {
      const problem = validateTolerance(substitute(activity.tolerance, configuration, secrets), where, {
        validateProbe: (p: unknown) => (undefined === p ? 'missing probe' : undefined),
        written: activity.tolerance,
      });
      if (problem) problems.push(problem);
    }
  }
  problems.push(...controlProblems(experiment));
  const skipped = skippedControls(parsed.success ? experiment.extensions : undefined, flags);
  problems.push(
    ...(await safeguardProblems(experiment, skipped, (p, where) => checkActivity(p, where, context))),
  );
  const traced = experimentTracing(topControls(experiment, skipped), configuration, env);
  problems.push(...traced.problems);
  const controlChecks = unrunnableControls(experiment, skipped);
  problems.push(...controlChecks.problems);
  const { loaded, problems: loading } = await loadControls(
    experiment,
    // Relative paths of js controls, as activity packages, are looked for beside the file first.
    experimentDir(raw) ?? process.cwd(),
  );
  problems.push(...loading);
  const warnings = [...keys.warnings, ...controlChecks.warnings, ...experimentWarnings(experiment)];
  if (problems.length > 0) {
    if (validation) throw new InvalidExperiment([...new Set(problems)]);
    warnings.push(...[...new Set(problems)].map((p) => `not valid (--no-validation): ${p}`));
  }
  const safeguards = safeguardProbes(experiment, skipped);
  return {
    experiment,
    configuration,
    secrets,
    activities,
    rails,
    controls: loaded,
    safeguards,
    warnings,
    ...(traced.tracing ? { tracing: traced.tracing } : {}),
  };
}

interface CheckContext {
  configuration: Json;
  secrets: ResolvedSecrets;
  /** Names declared by the configuration or the secrets whose values could not be resolved. */
  unresolved: ReadonlySet<string>;
  /** The secret groups the experiment declares (resolved or not). */
  groups: readonly string[];
  named: Referable;
  activities: Map<Activity, AnyActivity>;
  safety: Safety;
  namespace?: string;
  lookup: Lookup;
}

/** What the format cannot tell: references, pauses once substituted, and what each provider needs. */
async function checkActivity(activity: Json, where: string, ctx: CheckContext): Promise<string[]> {
  if ('ref' in activity) {
    return typeof activity.ref !== 'string' || !activity.ref || ctx.named.has(activity.ref)
      ? []
      : [`${where}: referenced activity '${activity.ref}' could not be found in the experiment`];
  }
  const problems: string[] = [];
  const pauses = isObject(activity.pauses) ? activity.pauses : {};
  for (const when of ['before', 'after'] as const) {
    const pause = pauses[when];
    if (pause === undefined) continue;
    const resolved = substitute(pause, ctx.configuration, ctx.secrets);
    if (typeof resolved !== 'number' || resolved < 0 || resolved > MAX_PAUSE_SECONDS) {
      problems.push(`${where}: ${pauseProblem(when)}`);
    }
  }
  const provider = activity.provider;
  if (!isObject(provider)) return problems;
  switch (provider.type) {
    case 'python':
      problems.push(...(await checkPython(activity, provider, where, ctx)));
      break;
    case 'process': {
      const problem = validateProcessProvider(provider);
      if (problem) problems.push(`${where}: ${problem}`);
      break;
    }
    case 'http': {
      const problem = validateHttpProvider(provider);
      if (problem) problems.push(`${where}: ${problem}`);
      break;
    }
  }
  return problems;
}

async function checkPython(activity: Json, provider: Json, where: string, ctx: CheckContext) {
  const problems: string[] = [];
  if (typeof provider.module !== 'string' || !provider.module) return problems;
  if (typeof provider.func !== 'string' || !provider.func) return problems;
  let target: AnyActivity;
  try {
    target = await resolveActivity(provider.module, provider.func, ctx.lookup);
  } catch (err) {
    return [`${where}: module '${provider.module}' ${(err as Error).message}`];
  }
  // The activity as declared: what the format checked it to be (or not, under --no-validation).
  ctx.activities.set(activity as Activity, target);
  if (ctx.namespace && target.arguments.some((a) => a.name === 'ns')) {
    const given = provider.arguments === undefined ? {} : provider.arguments;
    if (isObject(given) && !('ns' in given)) provider.arguments = { ...given, ns: ctx.namespace };
  }
  if (activity.type && activity.type !== target.kind) {
    problems.push(
      `${where}: ${target.qualifiedName} is a ${target.kind}, but the activity says ${activity.type}`,
    );
  }
  const groups = provider.secrets;
  if (Array.isArray(groups) && groups.every((s) => typeof s === 'string')) {
    try {
      // Unknown groups are refused here (against the declared groups, resolved or not).
      secretsFor(Object.fromEntries(ctx.groups.map((g) => [g, {}])), groups);
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
    }
  }
  const args = provider.arguments ?? {};
  const undefinedRefs = findUndefinedReferences(args, ctx.configuration, ctx.secrets);
  const missing = undefinedRefs.filter((r) => !ctx.unresolved.has(r));
  if (missing.length)
    problems.push(
      `${where}: arguments refer to ${missing.map((r) => `\${${r}}`).join(', ')}, defined neither in the configuration nor in the secrets`,
    );
  // Arguments that use a value not resolved are checked once it is.
  if (undefinedRefs.length) return problems;
  try {
    const validated = target.validate(substitute(args, ctx.configuration, ctx.secrets));
    for (const { argument, namespace } of target.targetNamespaces(validated))
      ctx.safety.checkNamespace(target.qualifiedName, namespace, argument);
  } catch (err) {
    problems.push(...argumentProblems(err, where));
  }
  return problems;
}

/** One line per problem of an activity's arguments (every one an InvalidArgument found), or the error. */
function argumentProblems(err: unknown, where: string): string[] {
  const lines = (err as { lines?: unknown }).lines;
  return (Array.isArray(lines) ? lines : [(err as Error).message]).map((line) => `${where}: ${line}`);
}

/** The chaoskit activities an experiment's python providers name (none resolved twice). */
export async function experimentActivities(raw: Json): Promise<AnyActivity[]> {
  const found = new Set<AnyActivity>();
  for (const activity of [...activitiesOf(raw), ...safeguardProbes(raw)]) {
    const provider = activity.provider;
    if (!isObject(provider) || provider.type !== 'python') continue;
    if (typeof provider.module !== 'string' || typeof provider.func !== 'string') continue;
    found.add(
      await resolveActivity(provider.module, provider.func, lookupFor(raw)).catch((err: Error) => {
        throw new Error(`module '${provider.module}' ${err.message}`);
      }),
    );
  }
  return [...found];
}
