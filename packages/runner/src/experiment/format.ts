// The Chaos Toolkit experiment format, declared once as a zod schema: `validate`, `run` and
// `plan` check experiment files with it, and `chaoskit schema` publishes it as JSON Schema with
// every installed activity's arguments. The schema checks the values of the keys it knows;
// what other keys mean (a warning, or a typo refused) is keys.ts's (D71, D94).

import { type ActivityAlias, type AnyActivity, type JsonSchema, z } from '@chaoskit/core';
import { originalModule } from '@chaoskit/core/runner';
import { extensionProblems } from './rails.js';
import { activityLabel, isObject, type Phase, phaseList } from './raw.js';

/** `${name}`: a reference to the configuration or the secrets. */
export const REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;
const reference = z.string().regex(REFERENCE);

// The Python originals' module names are core's, written once (definition/registry.ts).
export { originalModule };

const given = (input: unknown) => input !== undefined;

/** The longest pause: a day (a longer timer would overflow Node's and fire at once). */
export const MAX_PAUSE_SECONDS = 86_400;

export const pauseProblem = (key: string) =>
  `pauses.${key} must be a number of seconds, at most ${MAX_PAUSE_SECONDS} (a day), or a \${name} that resolves to one`;

// Every check carries the message: a union whose input has the type of one option reports that
// option's own issues (zod's "Too small…", which names no key).
const seconds = (key: string) =>
  z.union(
    [
      z.number().min(0, pauseProblem(key)).max(MAX_PAUSE_SECONDS, pauseProblem(key)),
      z.string().regex(REFERENCE, pauseProblem(key)),
    ],
    { error: pauseProblem(key) },
  );

const pauses = z.looseObject(
  { before: seconds('before').optional(), after: seconds('after').optional() },
  { error: 'pauses must be a mapping (before, after)' },
);

// Chaos Toolkit's controls (D81): Python ones are recognised (and reported: chaoskit cannot
// load them); chaoskit's own, of provider type `js`, are checked key by key.
const jsControlProvider = z.strictObject({
  type: z.literal('js'),
  module: z
    .string({ error: 'a js control needs provider.module: a file (./controls/audit.mjs) or a package' })
    .min(1, 'a js control needs provider.module: a file (./controls/audit.mjs) or a package'),
  arguments: z.record(z.string(), z.unknown(), { error: 'provider.arguments must be a mapping' }).optional(),
});
const control = z.looseObject({
  name: z.string({ error: 'a control must have a name' }).min(1, 'a control must have a name'),
  ref: z.string().min(1).optional(),
  provider: z
    .looseObject({ type: z.string({ error: "a control's provider must have a type (js, python)" }) })
    .superRefine((provider, ctx) => {
      if (provider.type !== 'js') return;
      const parsed = jsControlProvider.safeParse(provider);
      for (const issue of parsed.success ? [] : parsed.error.issues)
        ctx.addIssue({
          code: 'custom',
          message:
            issue.code === 'unrecognized_keys'
              ? `a js control's provider takes type, module and arguments, not ${issue.keys.join(', ')}`
              : issue.message,
        });
    })
    .optional(),
  scope: z.enum(['before', 'after'], { error: "a control's scope is 'before' or 'after'" }).optional(),
  automatic: z.boolean({ error: "a control's automatic is true or false" }).optional(),
});
const controls = z.array(control, { error: 'controls must be a list of controls' });

const secretNames = z.array(z.string(), { error: 'provider.secrets must be a list of secret group names' });

/** A python provider not bound to an activity: what validation checks before resolving it. */
const anyPython = z.looseObject({
  type: z.literal('python'),
  module: z.string({ error: 'a python provider needs a module' }).min(1, 'a python provider needs a module'),
  func: z.string({ error: 'a python provider needs a func' }).min(1, 'a python provider needs a func'),
  arguments: z.unknown().optional(),
  secrets: secretNames.optional(),
});

// The values of process and http providers are checked by their own modules (URLs,
// timeouts, argument shapes); the format fixes their keys.
const processProvider = z.looseObject({
  type: z.literal('process'),
  path: z.unknown(),
  arguments: z.unknown().optional(),
  timeout: z.unknown().optional(),
  secrets: secretNames.optional(),
});

const httpProvider = z.looseObject({
  type: z.literal('http'),
  url: z.unknown(),
  method: z.unknown().optional(),
  headers: z.unknown().optional(),
  arguments: z.unknown().optional(),
  timeout: z.unknown().optional(),
  verify_tls: z.unknown().optional(),
  expected_status: z.unknown().optional(),
  max_retries: z.unknown().optional(),
  secrets: secretNames.optional(),
});

/**
 * The python provider of one activity, or of an alias of one: its module (or its Chaos Toolkit
 * alias), func, typed arguments.
 */
function pythonProviderOf(target: AnyActivity | ActivityAlias) {
  const activity = 'activity' in target ? target.activity : target;
  const original = originalModule(target.module);
  const modules = original === target.module ? [target.module] : [target.module, original];
  const args = Object.fromEntries(
    Object.entries(activity.schema.shape).map(([name, schema]) => [
      name,
      z.union([schema as z.ZodType, reference]),
    ]),
  );
  return z
    .looseObject({
      type: z.literal('python'),
      module: z.enum(modules as [string, ...string[]]),
      func: z.literal(target.name),
      arguments: z.strictObject(args).optional(),
      secrets: secretNames.optional(),
    })
    .describe(`${target.qualifiedName}: ${activity.doc}`);
}

const providerError = (issue: { input?: unknown }) => {
  const type = (issue.input as { type?: unknown } | undefined)?.type;
  return given(issue.input)
    ? `unknown provider type ${JSON.stringify(type)} (python, process or http)`
    : 'an activity requires a provider';
};

const anyProvider = z.discriminatedUnion('type', [anyPython, processProvider, httpProvider], {
  error: providerError,
});

/** A provider as the format accepts it: python (any module and func), process or http. */
type Provider = z.output<typeof anyProvider>;

// Typed as the format without installed activities: each installed activity's provider is a
// python provider with narrower arguments, so the experiment's type is the same either way.
function providerOf(activities: ReadonlyArray<AnyActivity | ActivityAlias> | undefined): z.ZodType<Provider> {
  if (!activities) return anyProvider;
  return z.union([...activities.map(pythonProviderOf), processProvider, httpProvider], {
    error: providerError,
  });
}

const activityType = z.enum(['probe', 'action'], {
  error: (issue) => `type must be 'probe' or 'action' (got ${JSON.stringify(issue.input)})`,
});
const activityName = z
  .string({ error: 'an activity must have a name' })
  .min(1, 'an activity must have a name');

/** What an activity may hold besides its type, name and provider; a reference step too. */
const activityKeys = {
  pauses: pauses.optional(),
  tolerance: z.unknown().optional(),
  background: z.boolean({ error: 'background must be a boolean' }).optional(),
  timeout: z.number({ error: 'timeout must be a number of seconds' }).optional(),
  controls: controls.optional(),
  dry: z.unknown().optional(),
  configuration: z.unknown().optional(),
};

/**
 * An activity: declared fully, or a step that runs the activity `ref` names. A reference step
 * may carry Chaos Toolkit's activity keys (`type`, `tolerance` in a hypothesis, `background`…).
 */
function activityOf<P extends z.ZodType>(provider: P) {
  const full = z.looseObject({ type: activityType, name: activityName, provider, ...activityKeys });
  const ref = z.looseObject({
    ref: z
      .string({ error: 'a reference must be a non-empty string' })
      .min(1, 'a reference must be a non-empty string'),
    type: activityType.optional(),
    name: activityName.optional(),
    ...activityKeys,
  });
  return z.union([ref, full], { error: 'an activity is a mapping' });
}

const activities = <A extends z.ZodType>(activity: A, what: string) =>
  z.array(activity, { error: `${what} must be a list of activities` });

const EXTENSION = 'All extensions require a non-empty name';

const TAGS = 'experiment tags must be a list of non-empty strings';

const METHOD_REQUIRED =
  'an experiment requires a method, which can be empty for only checking the steady-state hypothesis';

/**
 * The experiment format. Without `activities`, a python provider is any module and func (they
 * are resolved after); with them (for `chaoskit schema`), each is one of those activities (or
 * aliases of activities) with its typed arguments.
 */
export function experimentFormat(installed?: ReadonlyArray<AnyActivity | ActivityAlias>) {
  const activity = activityOf(providerOf(installed));
  return z.looseObject(
    {
      version: z.unknown().optional(),
      title: z.string({ error: 'experiment requires a title' }).trim().min(1, 'experiment requires a title'),
      description: z
        .string({ error: 'experiment requires a description' })
        .trim()
        .min(1, 'experiment requires a description'),
      tags: z.array(z.string({ error: TAGS }).min(1, TAGS), { error: TAGS }).optional(),
      contributions: z
        .record(z.string(), z.unknown(), { error: 'contributions must be a mapping (reliability: high, …)' })
        .optional(),
      configuration: z
        .record(z.string(), z.unknown(), { error: 'configuration must be a mapping' })
        .optional(),
      secrets: z
        .record(z.string(), z.record(z.string(), z.unknown()), {
          error: 'secrets must be a mapping of groups',
        })
        .optional(),
      extensions: z
        .array(
          // Others' extensions are theirs; chaoskit's own (the safety rails) is checked key by key.
          z
            .looseObject({ name: z.string({ error: EXTENSION }).trim().min(1, EXTENSION) })
            .superRefine((extension, ctx) => {
              if (extension.name !== 'chaoskit') return;
              for (const message of extensionProblems(extension)) ctx.addIssue({ code: 'custom', message });
            }),
          { error: 'extensions must be a list of mappings, each with a non-empty name' },
        )
        .optional(),
      controls: controls.optional(),
      runtime: z.record(z.string(), z.unknown(), { error: 'runtime must be a mapping' }).optional(),
      'steady-state-hypothesis': z
        .looseObject(
          {
            title: z.string({ error: 'hypothesis requires a title' }).min(1, 'hypothesis requires a title'),
            probes: z.array(activity, { error: 'hypothesis probes must be a list' }).optional(),
            controls: controls.optional(),
          },
          { error: 'steady-state-hypothesis must be a mapping with a title and probes' },
        )
        .optional(),
      method: z.array(activity, {
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? METHOD_REQUIRED
            : 'method must be a list of activities',
      }),
      rollbacks: activities(activity, 'rollbacks').optional(),
      dry: z.unknown().optional(),
    },
    { error: 'an experiment is a mapping (title, description, method, …)' },
  );
}

/** An experiment as the format describes it: what `prepareExperiment` checks. */
export type Experiment = z.output<ReturnType<typeof experimentFormat>>;
/** An entry of a list of activities: an activity, or a step that runs the one its `ref` names. */
export type Step = Experiment['method'][number];
/** An activity declared in full: what a reference names, what runs. */
export type Activity = Exclude<Step, { ref: string }>;
export type Hypothesis = NonNullable<Experiment['steady-state-hypothesis']>;

/** The JSON Schema (2020-12) of experiment files, with the arguments of every given activity. */
export function experimentSchema(installed: ReadonlyArray<AnyActivity | ActivityAlias>): JsonSchema {
  const options = { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' } as const;
  const format = experimentFormat(installed);
  const activity = format.shape.method.element;
  const ref = { $ref: '#/$defs/activity' };
  const json = z.toJSONSchema(format, {
    ...options,
    // Every list of activities points at one definition.
    override: (ctx) => {
      if (ctx.zodSchema !== activity) return;
      for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
      Object.assign(ctx.jsonSchema, ref);
    },
  }) as JsonSchema;
  return {
    ...json,
    title: 'chaoskit experiment (Chaos Toolkit format)',
    $defs: { activity: z.toJSONSchema(activity, options) },
  };
}

/** The keys the format knows at each level: what keys.ts checks an experiment's keys against. */
export function formatKeys() {
  const format = experimentFormat();
  const keys = (schema: z.ZodObject) => Object.keys(schema.shape);
  return {
    experiment: keys(format),
    hypothesis: keys(format.shape['steady-state-hypothesis'].unwrap()),
    activity: ['type', 'name', 'provider', ...Object.keys(activityKeys)],
    reference: ['ref', 'type', 'name', ...Object.keys(activityKeys)],
    pauses: keys(pauses),
    provider: { python: keys(anyPython), process: keys(processProvider), http: keys(httpProvider) },
  };
}

/**
 * One line per problem, naming where it is ("method activity 'kill': pauses.before must be…");
 * a message that does not name its key is prefixed with it.
 */
export function formatProblems(raw: unknown, error: z.ZodError): string[] {
  const problems: string[] = [];
  const visit = (issue: z.core.$ZodIssue, base: readonly PropertyKey[]) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 1) {
      // An activity is a reference or a full activity: report against the one it meant to be.
      const value = valueAt(raw, path) as Record<string, unknown> | undefined;
      const branch = value && typeof value === 'object' && 'ref' in value ? 0 : 1;
      const chosen = issue.errors[branch] ?? issue.errors[0]!;
      if (value && typeof value === 'object' && !Array.isArray(value) && chosen.length > 0) {
        for (const inner of chosen) visit(inner, path);
        return;
      }
    }
    const { label, inner } = where(raw, path);
    const last = path.at(-1);
    const named = typeof last !== 'string' || issue.message.includes(last);
    problems.push(`${label}${inner && !named ? `${inner}: ` : ''}${issue.message}`);
  };
  for (const issue of error.issues) visit(issue, []);
  return [...new Set(problems)];
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let current = raw;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Where a path is, for people: the activity ("method activity 'kill': ") and the path inside it
 * ("provider"), or the path from the top ("steady-state-hypothesis").
 */
function where(raw: unknown, path: readonly PropertyKey[]): { label: string; inner: string } {
  const root = isObject(raw) ? raw : {};
  const [first, second, third] = path;
  const at = (phase: Phase, index: number, skip: number) => ({
    label: `${activityLabel(phase, phaseList(root, phase)[index], index)}: `,
    inner: path.slice(skip).join('.'),
  });
  if ((first === 'method' || first === 'rollbacks') && typeof second === 'number')
    return at(first, second, 2);
  if (first === 'steady-state-hypothesis' && second === 'probes' && typeof third === 'number')
    return at('hypothesis', third, 3);
  return { label: '', inner: path.join('.') };
}
