// One activity, one definition: an activity is declared once with `defineActivity`, and
// everything else — the camelCase TypeScript export, the validation of experiment arguments,
// the JSON Schema, the argument documentation, the RBAC rules, the README tables — is derived
// from that declaration.

import { z } from 'zod';
import { isTargetNamespace } from '../arguments/args.js';
import { Aborted, InvalidArgument } from '../errors/errors.js';
import type { RbacRule } from '../transport/access.js';
import {
  ACTIVITY,
  type Activity,
  type ActivityDefinition,
  type ActivityFn,
  type ArgsOutput,
  type ArgsSchema,
  type ArgsShape,
  type ArgumentInfo,
  type JsonSchema,
} from './activity.js';
import {
  type ActivityIdentity,
  type ActivityKind,
  buildContext,
  type RunCallOptions,
  safetyOf,
} from './activity-context.js';
import { type Naming, type Problem, problemFromIssue } from './argument-problems.js';
import { describeSchema } from './describe-schema.js';
import { renderValue } from './render-value.js';
import { suggest } from './suggest.js';

const CHANGES = new Set(['patch', 'update', 'delete']);

/**
 * The run's record reads an object before it is changed (its before-image): a rule that
 * changes objects needs `get` on them too, whatever the activity itself reads.
 */
function withRecordReads(rule: RbacRule): RbacRule {
  const changes = rule.verbs.some((verb) => CHANGES.has(verb));
  return changes && !rule.verbs.includes('get') ? { ...rule, verbs: [...rule.verbs, 'get'] } : { ...rule };
}

/** `label_selector` → `labelSelector`; the runtime twin of the `CamelCase` type. */
export function camelCase(name: string): string {
  const [head = '', ...rest] = name.split('_');
  return head + rest.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

const SNAKE_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const MODULE_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
// Given to the camelCase export next to the arguments, so no argument may be called so.
const RESERVED = new Set(['secrets', 'configuration', 'signal', 'log', 'dry_run', 'safety', 'ledger', 'env']);

/** The argument names both ways, once each is checked: snake_case, documented, not reserved, no clash. */
function argumentNames(
  where: string,
  args: ArgsShape,
): { snakeToCamel: Map<string, string>; camelToSnake: Map<string, string> } {
  const snakeToCamel = new Map<string, string>();
  const camelToSnake = new Map<string, string>();
  for (const arg of Object.keys(args)) {
    if (!SNAKE_NAME.test(arg)) throw new TypeError(`${where}: argument '${arg}' must be snake_case`);
    const camel = camelCase(arg);
    if (RESERVED.has(arg) || RESERVED.has(camel)) {
      throw new TypeError(`${where}: '${arg}' is injected by the runner and cannot be an argument`);
    }
    if (camelToSnake.has(camel))
      throw new TypeError(`${where}: arguments '${camelToSnake.get(camel)}' and '${arg}' clash`);
    if (!descriptionOf(args[arg] as z.ZodType))
      throw new TypeError(`${where}: argument '${arg}' has no .describe() documentation`);
    snakeToCamel.set(arg, camel);
    camelToSnake.set(camel, arg);
  }
  return { snakeToCamel, camelToSnake };
}

/** Refuses a definition whose name, module, kind, doc or RBAC rules are not as they must be. */
function checkDefinition<S extends ArgsShape, R, K extends ActivityKind>(
  where: string,
  definition: ActivityDefinition<S, R, K>,
): void {
  const { name, kind, module, doc } = definition;
  if (!SNAKE_NAME.test(name)) throw new TypeError(`${where}: the name must be snake_case`);
  if (!MODULE_NAME.test(module)) throw new TypeError(`${where}: the module must be a dotted name`);
  if (kind !== 'action' && kind !== 'probe')
    throw new TypeError(`${where}: kind must be 'action' or 'probe'`);
  if (typeof doc !== 'string' || doc.trim() === '') throw new TypeError(`${where}: doc is required`);
  for (const rule of definition.rbac) {
    for (const field of ['apiGroups', 'resources', 'verbs'] as const) {
      if (!Array.isArray(rule[field]) || rule[field].some((v) => typeof v !== 'string')) {
        throw new TypeError(`${where}: every RBAC rule needs ${field} as a list of strings`);
      }
    }
  }
}

/** How an activity's arguments are checked: every problem at once, named as the caller names them. */
function argumentChecks<S extends ArgsShape, R, K extends ActivityKind>(
  identity: ActivityIdentity,
  definition: ActivityDefinition<S, R, K>,
  schema: ArgsSchema<S>,
) {
  const { args, check } = definition;
  const argNames = Object.keys(args);
  const fail = (problems: readonly Problem[]): never => {
    const [first, ...others] = problems.map((p) => ({ activity: identity.qualifiedName, ...p }));
    throw new InvalidArgument(first!, others);
  };

  const unknownArgument = (given: string, naming: Naming): Problem => {
    const known = argNames.map(naming);
    const hint = suggest(given, known);
    const injected = RESERVED.has(given)
      ? `; '${given}' is given by the runner (provider.secrets, the experiment's configuration), not as an argument`
      : '';
    return {
      argument: given,
      accepted:
        known.length === 0
          ? 'no argument at all (this activity takes none)'
          : `one of the known arguments ${known.map((k) => `'${k}'`).join(', ')}`,
      received: `an unknown argument${hint ? `; did you mean '${hint}'?` : ''}${injected}`,
    };
  };

  // Every problem of the arguments at once (one per argument): fixing one should not reveal
  // the next only on the following try.
  const validateWith = (raw: unknown, naming: Naming): ArgsOutput<S> => {
    const input = raw === undefined || raw === null ? {} : raw;
    if (!isPlainObject(input)) {
      return fail([{ accepted: 'a mapping of argument names to values', received: renderValue(input) }]);
    }
    const problems = Object.keys(input)
      .filter((key) => !Object.hasOwn(args, key))
      .map((key) => unknownArgument(key, naming));
    const parsed = schema.safeParse(input);
    const seen = new Set<PropertyKey>();
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const [argument] = issue.path;
      // Unknown arguments are said above, each with its did-you-mean.
      if (argument === undefined ? issue.code === 'unrecognized_keys' : seen.has(argument)) continue;
      if (argument !== undefined) seen.add(argument);
      problems.push(problemFromIssue(issue, args, input, naming));
    }
    if (problems.length) fail(problems);
    const output = parsed.data as ArgsOutput<S>;
    const problem = check?.(output);
    if (problem) {
      const argument = problem.argument;
      const shown = 'value' in problem ? problem.value : argument ? output[argument] : undefined;
      fail([
        {
          ...(argument ? { argument: naming(argument) } : {}),
          accepted: problem.accepted,
          received: renderValue(shown),
        },
      ]);
    }
    return output;
  };
  return { fail, unknownArgument, validateWith };
}

type Invoke<R> = (raw: unknown, options: RunCallOptions | undefined, naming: Naming) => Promise<Awaited<R>>;

/**
 * The camelCase export: its options are the call's (secrets, signal…) and the arguments in
 * camelCase, given to `invoke` in snake_case.
 */
function camelCaseFn<R>(
  camelToSnake: ReadonlyMap<string, string>,
  unknown: (given: string) => never,
  invoke: Invoke<R>,
  camelNaming: Naming,
) {
  return async (options: Record<string, unknown> = {}) => {
    // `ledger` and `env` are not in the export's type: what a runner-like caller (such as
    // @chaoskit/vitest's fault handles) passes, so that camelCase options are named as such.
    const { secrets, configuration, signal, log, dryRun, safety, ledger, env, ...rest } =
      options as RunCallOptions & Record<string, unknown>;
    const snake: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) {
      if (value === undefined) continue;
      const arg = camelToSnake.get(key);
      if (arg === undefined) unknown(key);
      else snake[arg] = value;
    }
    const call: RunCallOptions = {
      ...(ledger !== undefined ? { ledger } : {}),
      ...(env !== undefined ? { env } : {}),
      ...(secrets !== undefined ? { secrets } : {}),
      ...(configuration !== undefined ? { configuration } : {}),
      ...(signal !== undefined ? { signal } : {}),
      ...(log !== undefined ? { log } : {}),
      ...(dryRun !== undefined ? { dryRun } : {}),
      ...(safety !== undefined ? { safety } : {}),
    };
    return invoke(snake, call, camelNaming);
  };
}

/** What each argument is, for discover, init and the docs. */
function describeArguments(args: ArgsShape): ArgumentInfo[] {
  return Object.keys(args).map((arg) => {
    const argSchema = args[arg] as z.ZodType;
    const info: ArgumentInfo = {
      name: arg,
      camelName: camelCase(arg),
      required: argSchema._zod.optin === undefined,
      description: descriptionOf(argSchema),
      accepted: describeSchema(argSchema),
    };
    const fallback = defaultOf(argSchema);
    if (fallback.has) info.default = fallback.value;
    return info;
  });
}

/** The JSON Schema of an activity's arguments, titled with its name and described by its doc. */
function jsonSchemaOf(
  schema: z.ZodType,
  qualifiedName: string,
  doc: string,
  deprecated: boolean,
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  const { $schema, ...rest } = json;
  return {
    $schema,
    title: qualifiedName,
    description: doc,
    ...(deprecated ? { deprecated: true } : {}),
    ...rest,
  };
}

export function defineActivity<S extends ArgsShape, R, K extends ActivityKind = ActivityKind>(
  definition: ActivityDefinition<S, R, K>,
): Activity<S, R, K> {
  const { name, kind, module, doc, args, run } = definition;
  const where = `defineActivity(${module}.${name})`;
  checkDefinition(where, definition);

  const identity: ActivityIdentity = Object.freeze({
    name,
    kind,
    module,
    qualifiedName: `${module}.${name}`,
  });
  const argNames = Object.keys(args);
  const { snakeToCamel, camelToSnake } = argumentNames(where, args);

  const schema = z.strictObject(args) as unknown as ArgsSchema<S>;
  const snakeNaming: Naming = (arg) => arg;
  const camelNaming: Naming = (arg) => snakeToCamel.get(arg) ?? arg;
  const { fail, unknownArgument, validateWith } = argumentChecks(identity, definition, schema);

  const namespaceArgs = kind === 'action' ? argNames.filter((arg) => isTargetNamespace(args[arg])) : [];
  const targetNamespaces = (validated: Record<string, unknown>) =>
    namespaceArgs.flatMap((argument) => {
      const namespace = validated[argument];
      return typeof namespace === 'string' ? [{ argument, namespace }] : [];
    });

  const invoke = async (
    raw: unknown,
    options: RunCallOptions | undefined,
    naming: Naming,
  ): Promise<Awaited<R>> => {
    const validated = validateWith(raw, naming);
    const safety = safetyOf(options?.safety);
    for (const { argument, namespace } of targetNamespaces(validated))
      safety.checkNamespace(identity.qualifiedName, namespace, naming(argument));
    const context = buildContext(identity, { ...options, safety });
    const { signal } = context;
    if (signal?.aborted) throw Aborted.of(identity.qualifiedName, signal.reason);
    try {
      return (await run(validated, context)) as Awaited<R>;
    } catch (err) {
      // Whatever step the abort stopped, however it surfaced there: one Aborted, naming the activity.
      throw signal?.aborted ? Aborted.of(identity.qualifiedName, signal.reason, err) : err;
    }
  };
  const fn = camelCaseFn(
    camelToSnake,
    (key) => fail([unknownArgument(key, camelNaming)]),
    invoke,
    camelNaming,
  );

  // Described on first read (discover, init, a namespace given on the command line): converting
  // each argument's schema to JSON Schema for its default and its description was most of the
  // time an activity package took to load, paid at every start for every activity it defines.
  let argumentInfo: readonly ArgumentInfo[] | undefined;
  const deprecated = definition.deprecated === true || typeof definition.deprecated === 'string';

  const activity: Activity<S, R, K> & { [ACTIVITY]: true } = {
    [ACTIVITY]: true,
    ...identity,
    kind,
    camelName: camelCase(name),
    doc,
    returns: definition.returns,
    schema,
    get arguments() {
      argumentInfo ??= Object.freeze(describeArguments(args));
      return argumentInfo;
    },
    rbac: Object.freeze(definition.rbac.map((rule) => Object.freeze(withRecordReads(rule)))),
    deprecated,
    deprecationNote: typeof definition.deprecated === 'string' ? definition.deprecated : undefined,
    validate: (raw) => validateWith(raw, snakeNaming),
    call: (raw, options) => invoke(raw, options, snakeNaming),
    targetNamespaces,
    jsonSchema: () => jsonSchemaOf(schema, identity.qualifiedName, doc, deprecated),
    fn: fn as unknown as ActivityFn<S, R>,
  };
  return Object.freeze(activity);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// `.describe()` and `.meta()` write the schema's metadata; wrappers such as `.default()` have
// their own, so the description is looked for from the outside in.
function descriptionOf(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  for (let i = 0; current && i < 32; i++) {
    const described = current.meta()?.description;
    if (described) return described;
    const def = current._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    current = def.innerType ?? def.in;
  }
  return undefined;
}

// zod's JSON Schema leaves out the default of a schema that transforms its input; what the
// schema makes of nothing at all is that default too.
function defaultOf(schema: z.ZodType): { has: boolean; value?: unknown } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  if ('default' in json) return { has: true, value: json.default };
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? { has: true, value: parsed.data } : { has: false };
}
