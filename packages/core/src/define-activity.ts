// One activity, one definition: an activity is declared once with `defineActivity`,
// and everything else — the camelCase TypeScript export, the validation of experiment
// arguments, the JSON Schema, the argument documentation and the RBAC rules — is derived from
// that declaration. Nothing about an activity is written twice.

import { z } from 'zod';
import { InvalidArgument } from './errors.js';
import { redact, registerSecret } from './redact.js';

// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

export type ActivityKind = 'action' | 'probe';

/** One RBAC rule the activity needs (the shape of a Kubernetes `PolicyRule`). */
export interface RbacRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/**
 * What an activity's `run` receives besides its arguments. An interface (not a type alias) so
 * that other modules can extend it by declaration merging, e.g. to add an API client factory.
 */
export interface ActivityContext {
  /** The merged secrets of the groups the activity lists in `provider.secrets`. */
  secrets: Record<string, unknown>;
  /** The whole resolved configuration of the experiment. */
  configuration: Record<string, unknown>;
  signal?: AbortSignal;
  /** Log a message; the text passes through `redact` before it is written anywhere. */
  log: (message: string) => void;
  /**
   * Plan mode (`chaoskit plan`): select as usual, send every mutation as a server-side dry
   * run (`dryRunParam`), and skip waiting for effects that will not happen.
   */
  dryRun?: boolean;
}

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

/** What every camelCase export accepts besides the activity's own arguments. */
export interface CallOptions {
  secrets?: Record<string, unknown>;
  configuration?: Record<string, unknown>;
  signal?: AbortSignal;
  log?: (message: string) => void;
  dryRun?: boolean;
}

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

export interface ActivityDefinition<S extends ArgsShape, R> {
  /** The experiment function name, snake_case (`terminate_pods`). */
  name: string;
  kind: ActivityKind;
  /** The experiment module (`chaoscluster.pod.actions`). */
  module: string;
  doc: string;
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
export interface AnyActivity {
  readonly name: string;
  readonly camelName: string;
  readonly kind: ActivityKind;
  readonly module: string;
  /** `module.name`, e.g. `chaoscluster.pod.actions.terminate_pods`. */
  readonly qualifiedName: string;
  readonly doc: string;
  readonly schema: z.ZodObject<ArgsShape, z.core.$strict>;
  readonly arguments: readonly ArgumentInfo[];
  readonly rbac: readonly Readonly<RbacRule>[];
  readonly deprecated: boolean;
  readonly deprecationNote: string | undefined;
  /** Validates experiment arguments (snake_case); throws `InvalidArgument`. */
  validate(rawArgs: unknown): Record<string, unknown>;
  /** Validates, then runs. Nothing runs when the arguments are invalid. */
  call(rawArgs: unknown, ctx?: Partial<ActivityContext>): Promise<unknown>;
  /** JSON Schema (draft 2020-12) of the arguments. */
  jsonSchema(): JsonSchema;
}

export interface Activity<S extends ArgsShape = ArgsShape, R = unknown> extends AnyActivity {
  readonly schema: ArgsSchema<S>;
  validate(rawArgs: unknown): ArgsOutput<S>;
  call(rawArgs: unknown, ctx?: Partial<ActivityContext>): Promise<Awaited<R>>;
  /** The idiomatic TypeScript export: camelCase options, validated exactly like experiments. */
  readonly fn: ActivityFn<S, R>;
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/** `label_selector` → `labelSelector`; the runtime twin of the `CamelCase` type. */
export function camelCase(name: string): string {
  const [head = '', ...rest] = name.split('_');
  return head + rest.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

const SNAKE_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const MODULE_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
// Given to the camelCase export next to the arguments, so no argument may be called so.
const RESERVED = new Set(['secrets', 'configuration', 'signal', 'log', 'dry_run']);

// ---------------------------------------------------------------------------------------------
// defineActivity
// ---------------------------------------------------------------------------------------------

export function defineActivity<S extends ArgsShape, R>(definition: ActivityDefinition<S, R>): Activity<S, R> {
  const { name, kind, module, doc, args, run, check } = definition;
  const where = `defineActivity(${module}.${name})`;
  if (!SNAKE_NAME.test(name)) throw new TypeError(`${where}: the name must be snake_case`);
  if (!MODULE_NAME.test(module)) throw new TypeError(`${where}: the module must be a dotted name`);
  if (kind !== 'action' && kind !== 'probe')
    throw new TypeError(`${where}: kind must be 'action' or 'probe'`);
  if (typeof doc !== 'string' || doc.trim() === '') throw new TypeError(`${where}: doc is required`);

  const qualifiedName = `${module}.${name}`;
  const argNames = Object.keys(args);
  const snakeToCamel = new Map<string, string>();
  const camelToSnake = new Map<string, string>();
  for (const arg of argNames) {
    if (!SNAKE_NAME.test(arg)) throw new TypeError(`${where}: argument '${arg}' must be snake_case`);
    const camel = camelCase(arg);
    if (RESERVED.has(arg) || RESERVED.has(camel)) {
      throw new TypeError(`${where}: '${arg}' is injected by the runner and cannot be an argument`);
    }
    if (camelToSnake.has(camel))
      throw new TypeError(`${where}: arguments '${camelToSnake.get(camel)}' and '${arg}' clash`);
    const schema = args[arg] as z.core.$ZodType;
    if (!descriptionOf(schema))
      throw new TypeError(`${where}: argument '${arg}' has no .describe() documentation`);
    snakeToCamel.set(arg, camel);
    camelToSnake.set(camel, arg);
  }
  for (const rule of definition.rbac) {
    for (const field of ['apiGroups', 'resources', 'verbs'] as const) {
      if (!Array.isArray(rule[field]) || rule[field].some((v) => typeof v !== 'string')) {
        throw new TypeError(`${where}: every RBAC rule needs ${field} as a list of strings`);
      }
    }
  }

  const schema = z.strictObject(args) as unknown as ArgsSchema<S>;
  const snakeNaming: Naming = (arg) => arg;
  const camelNaming: Naming = (arg) => snakeToCamel.get(arg) ?? arg;

  const fail = (problem: Problem): never => {
    throw new InvalidArgument({ activity: qualifiedName, ...problem });
  };

  const unknownArgument = (given: string, naming: Naming): never => {
    const known = argNames.map(naming);
    const hint = suggest(given, known);
    const injected = RESERVED.has(given)
      ? `; '${given}' is given by the runner (provider.secrets, the experiment's configuration), not as an argument`
      : '';
    return fail({
      argument: given,
      accepted:
        known.length === 0
          ? 'no argument at all (this activity takes none)'
          : `one of the known arguments ${known.map((k) => `'${k}'`).join(', ')}`,
      received: `an unknown argument${hint ? `; did you mean '${hint}'?` : ''}${injected}`,
    });
  };

  const validateWith = (raw: unknown, naming: Naming): ArgsOutput<S> => {
    const input = raw === undefined || raw === null ? {} : raw;
    if (!isPlainObject(input)) {
      return fail({ accepted: 'a mapping of argument names to values', received: renderValue(input) });
    }
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(args, key)) unknownArgument(key, naming);
    }
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue) fail(problemFromIssue(issue, args, input, naming));
    }
    const output = parsed.data as ArgsOutput<S>;
    const problem = check?.(output);
    if (problem) {
      const argument = problem.argument;
      const shown = 'value' in problem ? problem.value : argument ? output[argument] : undefined;
      fail({
        ...(argument ? { argument: naming(argument) } : {}),
        accepted: problem.accepted,
        received: renderValue(shown),
      });
    }
    return output;
  };

  const invoke = async (
    raw: unknown,
    ctx: Partial<ActivityContext> | undefined,
    naming: Naming,
  ): Promise<Awaited<R>> => {
    const validated = validateWith(raw, naming);
    const context = buildContext(ctx);
    context.signal?.throwIfAborted();
    return (await run(validated, context)) as Awaited<R>;
  };

  const fn = async (options: Record<string, unknown> = {}) => {
    const { secrets, configuration, signal, log, dryRun, ...rest } = options as CallOptions &
      Record<string, unknown>;
    const snake: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) {
      if (value === undefined) continue;
      const arg = camelToSnake.get(key);
      if (arg === undefined) unknownArgument(key, camelNaming);
      else snake[arg] = value;
    }
    const ctx: Partial<ActivityContext> = {};
    if (secrets !== undefined) ctx.secrets = secrets;
    if (configuration !== undefined) ctx.configuration = configuration;
    if (signal !== undefined) ctx.signal = signal;
    if (log !== undefined) ctx.log = log;
    if (dryRun !== undefined) ctx.dryRun = dryRun;
    return invoke(snake, ctx, camelNaming);
  };

  const argumentInfo: ArgumentInfo[] = argNames.map((arg) => {
    const argSchema = args[arg] as z.core.$ZodType;
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

  const deprecated = definition.deprecated === true || typeof definition.deprecated === 'string';

  const activity: Activity<S, R> = {
    name,
    camelName: camelCase(name),
    kind,
    module,
    qualifiedName,
    doc,
    schema,
    arguments: Object.freeze(argumentInfo),
    rbac: Object.freeze(definition.rbac.map((rule) => Object.freeze({ ...rule }))),
    deprecated,
    deprecationNote: typeof definition.deprecated === 'string' ? definition.deprecated : undefined,
    validate: (raw) => validateWith(raw, snakeNaming),
    call: (raw, ctx) => invoke(raw, ctx, snakeNaming),
    jsonSchema: () => {
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
    },
    fn: fn as unknown as ActivityFn<S, R>,
  };
  return Object.freeze(activity);
}

function buildContext(ctx: Partial<ActivityContext> | undefined): ActivityContext {
  const secrets = ctx?.secrets ?? {};
  registerSecretsIn(secrets);
  const sink = ctx?.log;
  return {
    ...ctx,
    secrets,
    configuration: ctx?.configuration ?? {},
    log: (message: string) => sink?.(redact(String(message))),
  };
}

// Secrets given straight to an activity (the camelCase export) must not leak either.
function registerSecretsIn(value: unknown, depth = 0): void {
  if (typeof value === 'string') registerSecret(value);
  else if (depth < 8 && isPlainObject(value)) {
    for (const inner of Object.values(value)) registerSecretsIn(inner, depth + 1);
  }
}

// ---------------------------------------------------------------------------------------------
// From zod issues to InvalidArgument
// ---------------------------------------------------------------------------------------------

type Naming = (argument: string) => string;

interface Problem {
  argument?: string;
  accepted: string;
  received?: string;
}

function problemFromIssue(
  issue: z.core.$ZodIssue,
  shape: ArgsShape,
  input: Record<string, unknown>,
  naming: Naming,
): Problem {
  const [first, ...rest] = issue.path;
  if (first === undefined) {
    return { accepted: 'a mapping of argument names to values', received: renderValue(input) };
  }
  const key = String(first);
  const argSchema = shape[key] as z.core.$ZodType | undefined;
  const argument = naming(key);
  const value = valueAt(input, issue.path);
  const authored = issue.code === 'custom' && issue.message && issue.message !== 'Invalid input';
  if (rest.length === 0) {
    if (value === undefined && argSchema?._zod.optin === undefined) {
      return {
        argument,
        accepted: argSchema ? describeSchema(argSchema) : 'a value',
        received: 'nothing: the argument is required',
      };
    }
    return {
      argument,
      accepted: authored ? issue.message : argSchema ? describeSchema(argSchema) : 'a valid value',
      received: renderValue(value),
    };
  }
  const location = `${argument}${rest.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
  if (issue.code === 'unrecognized_keys') {
    const inner = argSchema ? schemaAt(argSchema, rest) : undefined;
    return {
      argument,
      accepted: `${inner ? describeSchema(inner) : 'a mapping'} at ${location}`,
      received: `the unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`,
    };
  }
  const inner = argSchema ? schemaAt(argSchema, rest) : undefined;
  const expected = authored ? issue.message : inner ? describeSchema(inner) : 'a valid value';
  return { argument, accepted: `${expected} at ${location}`, received: renderValue(value) };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The schema that validates `path` inside `schema`, when it can be told without the value. */
function schemaAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (const key of path) {
    current = current ? unwrapAll(current) : undefined;
    if (!current) return undefined;
    const def = defOf(current);
    if (def.type === 'object' && typeof key === 'string') current = (def.shape as ArgsShape)[key];
    else if (def.type === 'array' && typeof key === 'number') current = def.element as z.core.$ZodType;
    else if (def.type === 'tuple' && typeof key === 'number') {
      current = (def.items as z.core.$ZodType[])[key] ?? (def.rest as z.core.$ZodType | undefined);
    } else if (def.type === 'record') current = def.valueType as z.core.$ZodType;
    else return undefined;
  }
  return current;
}

function unwrapAll(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) || def.type === 'nullable') current = def.innerType as z.core.$ZodType;
    else if (def.type === 'pipe') current = def.in as z.core.$ZodType;
    else if (def.type === 'lazy') current = (def.getter as () => z.core.$ZodType)();
    else break;
  }
  return current;
}

// ---------------------------------------------------------------------------------------------
// Describing a schema in words ("an integer from 1 to 100", "one of 'fixed', 'percentage'")
// ---------------------------------------------------------------------------------------------

interface LooseDef {
  type: string;
  checks?: z.core.$ZodCheck[];
  [key: string]: unknown;
}

function defOf(schema: z.core.$ZodType): LooseDef {
  return schema._zod.def as unknown as LooseDef;
}

function checksOf(schema: z.core.$ZodType): Record<string, unknown>[] {
  const def = defOf(schema);
  const own = def.checks ?? [];
  const list = own.map((c) => c._zod.def as unknown as Record<string, unknown>);
  // `z.int()` is a number schema whose own def is its format check.
  if (typeof def.check === 'string') list.unshift(def as unknown as Record<string, unknown>);
  return list;
}

// Schemas that only wrap another one without changing what is accepted.
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nonoptional', 'catch', 'readonly']);

const acceptedOverrides = new WeakMap<object, string>();

/**
 * Sets the words used for what `schema` accepts, where the derived ones would be poor (a
 * refinement, a duration syntax). Returns the same schema, so it composes with zod calls.
 */
export function accepting<T extends z.core.$ZodType>(schema: T, text: string): T {
  acceptedOverrides.set(schema, text);
  return schema;
}

/** What a schema accepts, in words. */
export function describeSchema(schema: z.core.$ZodType): string {
  return joinOr(alternatives(schema, 0));
}

function alternatives(schema: z.core.$ZodType, depth: number): string[] {
  const override = acceptedOverrides.get(schema);
  if (override) return [override];
  if (depth > 8) return ['a value'];
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return alternatives(def.innerType as z.core.$ZodType, depth);
  switch (def.type) {
    case 'nullable':
      return unique([...alternatives(def.innerType as z.core.$ZodType, depth), 'null']);
    case 'union':
      return unique((def.options as z.core.$ZodType[]).flatMap((option) => alternatives(option, depth + 1)));
    case 'enum':
      return [oneOf(Object.values(def.entries as Record<string, string | number>))];
    case 'literal':
      return [oneOf(def.values as unknown[])];
    case 'pipe':
      return alternatives(def.in as z.core.$ZodType, depth);
    case 'lazy':
      return alternatives((def.getter as () => z.core.$ZodType)(), depth + 1);
    default:
      return [describeSingle(schema, def, depth)];
  }
}

function describeSingle(schema: z.core.$ZodType, def: LooseDef, depth: number): string {
  switch (def.type) {
    case 'string':
      return describeString(schema);
    case 'number':
      return describeNumber(schema);
    case 'bigint':
      return 'an integer';
    case 'boolean':
      return 'a boolean (true or false)';
    case 'null':
      return 'null';
    case 'undefined':
    case 'void':
      return 'nothing';
    case 'any':
    case 'unknown':
      return 'any value';
    case 'date':
      return 'a date';
    case 'array':
      return describeArray(schema, def, depth);
    case 'tuple': {
      const items = def.items as z.core.$ZodType[];
      return `a list of ${items.length} item${items.length === 1 ? '' : 's'} (${items
        .map((item) => describeAt(item, depth + 1))
        .join(', ')})`;
    }
    case 'object':
      return describeObject(def, depth);
    case 'record': {
      const values = describeAt(def.valueType as z.core.$ZodType, depth + 1);
      const keys = plural(describeAt(def.keyType as z.core.$ZodType, depth + 1));
      if (values === 'any value') return keys === 'strings' ? 'a mapping' : `a mapping with ${keys} as keys`;
      return `a mapping from ${keys} to ${plural(values)}`;
    }
    case 'transform':
    case 'custom':
      return 'a valid value';
    default:
      return `a value of type ${def.type}`;
  }
}

function describeAt(schema: z.core.$ZodType, depth: number): string {
  return joinOr(alternatives(schema, depth));
}

function describeString(schema: z.core.$ZodType): string {
  let min: number | undefined;
  let max: number | undefined;
  const extras: string[] = [];
  for (const check of checksOf(schema)) {
    switch (check.check) {
      case 'min_length':
        min = Math.max(min ?? 0, check.minimum as number);
        break;
      case 'max_length':
        max = Math.min(max ?? Number.POSITIVE_INFINITY, check.maximum as number);
        break;
      case 'length_equals':
        min = max = check.length as number;
        break;
      case 'string_format':
        extras.push(describeFormat(check));
        break;
    }
  }
  let text = min === 1 && max === undefined ? 'a non-empty string' : 'a string';
  if (min !== undefined && min === max) text += ` of exactly ${chars(min)}`;
  else if (min !== undefined && min > 1 && max !== undefined) text += ` of ${min} to ${max} characters`;
  else if (min !== undefined && min > 1) text += ` of at least ${chars(min)}`;
  else if (max !== undefined) text += ` of at most ${chars(max)}`;
  for (const extra of extras) text += ` ${extra}`;
  return text;
}

function chars(n: number): string {
  return `${n} character${n === 1 ? '' : 's'}`;
}

function describeFormat(check: Record<string, unknown>): string {
  switch (check.format) {
    case 'regex':
      return `matching ${String(check.pattern)}`;
    case 'starts_with':
      return `starting with '${String(check.prefix)}'`;
    case 'ends_with':
      return `ending with '${String(check.suffix)}'`;
    case 'includes':
      return `containing '${String(check.includes)}'`;
    case 'lowercase':
    case 'uppercase':
      return `in ${String(check.format)}`;
    default:
      return `in ${String(check.format)} format`;
  }
}

function describeNumber(schema: z.core.$ZodType): string {
  let isInt = false;
  let lower: { value: number; inclusive: boolean } | undefined;
  let upper: { value: number; inclusive: boolean } | undefined;
  let multipleOf: number | undefined;
  for (const check of checksOf(schema)) {
    if (check.check === 'number_format') {
      isInt ||= ['safeint', 'int32', 'uint32'].includes(check.format as string);
    } else if (check.check === 'greater_than') {
      const value = check.value as number;
      if (!lower || value > lower.value) lower = { value, inclusive: check.inclusive as boolean };
    } else if (check.check === 'less_than') {
      const value = check.value as number;
      if (!upper || value < upper.value) upper = { value, inclusive: check.inclusive as boolean };
    } else if (check.check === 'multiple_of') {
      multipleOf = check.value as number;
      if (multipleOf === 1) isInt = true;
    }
  }
  let text = isInt ? 'an integer' : 'a number';
  if (lower?.inclusive && upper?.inclusive) text += ` from ${lower.value} to ${upper.value}`;
  else {
    const bounds: string[] = [];
    if (lower) bounds.push(`${lower.inclusive ? 'at least' : 'greater than'} ${lower.value}`);
    if (upper) bounds.push(`${upper.inclusive ? 'at most' : 'less than'} ${upper.value}`);
    if (bounds.length) text += ` ${bounds.join(' and ')}`;
  }
  if (multipleOf !== undefined && multipleOf !== 1) text += `, a multiple of ${multipleOf}`;
  return text;
}

function describeArray(schema: z.core.$ZodType, def: LooseDef, depth: number): string {
  let min: number | undefined;
  let max: number | undefined;
  for (const check of checksOf(schema)) {
    if (check.check === 'min_length') min = check.minimum as number;
    else if (check.check === 'max_length') max = check.maximum as number;
    else if (check.check === 'length_equals') min = max = check.length as number;
  }
  const element = describeAt(def.element as z.core.$ZodType, depth + 1);
  let text =
    element === 'any value'
      ? 'a list'
      : /^an? /.test(element)
        ? `a list of ${plural(element)}`
        : `a list of ${element}`;
  if (min === 1 && max === undefined) text = `a non-empty ${text.slice(2)}`;
  else if (min !== undefined && min === max) text += ` of exactly ${items(min)}`;
  else if (min !== undefined && max !== undefined) text += ` of ${min} to ${max} items`;
  else if (min !== undefined && min > 0) text += ` of at least ${items(min)}`;
  else if (max !== undefined) text += ` of at most ${items(max)}`;
  return text;
}

function items(n: number): string {
  return `${n} item${n === 1 ? '' : 's'}`;
}

function describeObject(def: LooseDef, depth: number): string {
  const shape = def.shape as ArgsShape;
  const keys = Object.keys(shape);
  if (keys.length === 0 || keys.length > 4 || depth > 3) return 'a mapping';
  const parts = keys.map((key) => {
    const field = shape[key] as z.core.$ZodType;
    const optional = field._zod.optin !== undefined ? 'optional, ' : '';
    return `'${key}' (${optional}${describeAt(field, depth + 1)})`;
  });
  return `a mapping with ${keys.length === 1 ? 'key' : 'keys'} ${parts.join(', ')}`;
}

/** "a string" → "strings", "an integer from 1 to 5" → "integers from 1 to 5". */
function plural(text: string): string {
  const match = /^an? (non-empty )?(string|integer|number|boolean|mapping|list|date)\b(.*)$/.exec(text);
  if (!match) return text.replace(/^an? /, '');
  const [, adjective = '', noun, restText = ''] = match;
  return `${adjective}${noun}s${restText}`;
}

function oneOf(values: readonly unknown[]): string {
  const rendered = values.map(renderLiteral);
  return rendered.length === 1 ? (rendered[0] ?? '') : `one of ${rendered.join(', ')}`;
}

function renderLiteral(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function joinOr(values: readonly string[]): string {
  if (values.length <= 1) return values[0] ?? 'nothing';
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

function descriptionOf(schema: z.core.$ZodType): string | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (let i = 0; current && i < 32; i++) {
    const described = z.globalRegistry.get(current)?.description;
    if (described) return described;
    const def = defOf(current);
    current =
      WRAPPERS.has(def.type) || def.type === 'nullable'
        ? (def.innerType as z.core.$ZodType)
        : def.type === 'pipe'
          ? (def.in as z.core.$ZodType)
          : undefined;
  }
  return undefined;
}

function defaultOf(schema: z.core.$ZodType): { has: boolean; value?: unknown } {
  let current: z.core.$ZodType = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(current);
    if (def.type === 'default' || def.type === 'prefault') return { has: true, value: def.defaultValue };
    if (!WRAPPERS.has(def.type)) return { has: false };
    current = def.innerType as z.core.$ZodType;
  }
  return { has: false };
}

// ---------------------------------------------------------------------------------------------
// Rendering what was received
// ---------------------------------------------------------------------------------------------

const MAX_RENDERED = 80;

/**
 * A value as shown in an error ("the string 'abc'", "the number 5"). Registered secrets are
 * masked before the text is shortened, so a cut can never leave a part of a secret visible.
 */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `the string '${clip(redact(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n'))}'`;
    case 'number':
      return `the number ${value}`;
    case 'bigint':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return `${Array.isArray(value) ? 'the list' : 'the mapping'} ${clip(redact(safeJson(value)))}`;
    default:
      return `a ${typeof value}`;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function clip(text: string): string {
  return text.length <= MAX_RENDERED ? text : `${text.slice(0, MAX_RENDERED - 1)}…`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The known name closest to a mistyped one, when it is close enough to be a likely typo. */
function suggest(given: string, known: readonly string[]): string | undefined {
  const normal = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = normal(candidate) === normal(given) ? 0 : levenshtein(given, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(given.length / 3)) ? best : undefined;
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The request parameter of a mutation: a server-side dry run in plan mode, nothing otherwise. */
export function dryRunParam(ctx: Pick<ActivityContext, 'dryRun'>): { dryRun?: string } {
  return ctx.dryRun ? { dryRun: 'All' } : {};
}
