// What a schema accepts, in words ("an integer from 1 to 100", "one of 'fixed', 'percentage'"),
// read from the schema's JSON Schema (zod's public z.toJSONSchema), so the words follow what
// validation and `chaoskit discover` publish. Where derived words would be poor (a refinement,
// a duration syntax), the schema carries its own as metadata: `accepting(schema, text)`.

import { z } from 'zod';

type Json = Record<string, unknown>;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Sets the words used for what `schema` accepts. Stored as the schema's metadata (`accepted`),
 * so it survives `.describe()` and every other clone.
 */
export function accepting<T extends z.core.$ZodType>(schema: T, text: string): T {
  return (schema as unknown as z.ZodType).meta({ accepted: text }) as unknown as T;
}

/** The JSON Schema of what `schema` accepts as input (transforms describe their input). */
export function inputJsonSchema(schema: z.core.$ZodType): Json {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
}

/** What a schema accepts, in words. */
export function describeSchema(schema: z.core.$ZodType): string {
  return describeJson(inputJsonSchema(schema));
}

/** What a JSON Schema (as zod writes it) accepts, in words. */
export function describeJson(root: Json): string {
  const defs = (root.$defs ?? {}) as Record<string, Json>;
  return joinOr(alternatives(root, defs, 0));
}

function resolve(node: Json, defs: Record<string, Json>): Json {
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return defs[ref.slice(8)] ?? {};
  return node;
}

function alternatives(input: Json, defs: Record<string, Json>, depth: number): string[] {
  const node = resolve(input, defs);
  if (typeof node.accepted === 'string') return [node.accepted];
  if (depth > 8) return ['a value'];
  const options = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (options) return unique(options.flatMap((option) => alternatives(option, defs, depth + 1)));
  if (Array.isArray(node.enum)) return [oneOf(node.enum)];
  if ('const' in node) return [oneOf([node.const])];
  if (Array.isArray(node.type)) {
    return unique(node.type.flatMap((t) => alternatives({ ...node, type: t }, defs, depth + 1)));
  }
  return [describeSingle(node, defs, depth)];
}

function describeSingle(node: Json, defs: Record<string, Json>, depth: number): string {
  switch (node.type) {
    case 'string':
      return describeString(node);
    case 'integer':
    case 'number':
      return describeNumber(node);
    case 'boolean':
      return 'a boolean (true or false)';
    case 'null':
      return 'null';
    case 'array':
      return describeArray(node, defs, depth);
    case 'object':
      return describeObject(node, defs, depth);
    default:
      return 'any value';
  }
}

function describeAt(node: Json, defs: Record<string, Json>, depth: number): string {
  return joinOr(alternatives(node, defs, depth));
}

function describeString(node: Json): string {
  const min = node.minLength as number | undefined;
  const max = node.maxLength as number | undefined;
  let text = min === 1 && max === undefined ? 'a non-empty string' : 'a string';
  if (min !== undefined && min === max) text += ` of exactly ${chars(min)}`;
  else if (min !== undefined && min > 1 && max !== undefined) text += ` of ${min} to ${max} characters`;
  else if (min !== undefined && min > 1) text += ` of at least ${chars(min)}`;
  else if (max !== undefined) text += ` of at most ${chars(max)}`;
  if (typeof node.format === 'string') text += ` in ${node.format} format`;
  const patterns = [
    ...(typeof node.pattern === 'string' ? [node.pattern] : []),
    ...((node.allOf as Json[] | undefined) ?? []).map((a) => a.pattern).filter((p) => typeof p === 'string'),
  ];
  for (const pattern of patterns) text += ` matching /${pattern}/`;
  return text;
}

function chars(n: number): string {
  return `${n} character${n === 1 ? '' : 's'}`;
}

function describeNumber(node: Json): string {
  let text = node.type === 'integer' ? 'an integer' : 'a number';
  // z.int() states the safe-integer range; that is no limit worth saying.
  const bound = (v: unknown) => (typeof v === 'number' && Math.abs(v) < MAX_SAFE ? v : undefined);
  const min = bound(node.minimum);
  const max = bound(node.maximum);
  const gt = bound(node.exclusiveMinimum);
  const lt = bound(node.exclusiveMaximum);
  if (min !== undefined && max !== undefined) text += ` from ${min} to ${max}`;
  else {
    const bounds: string[] = [];
    if (min !== undefined) bounds.push(`at least ${min}`);
    if (gt !== undefined) bounds.push(`greater than ${gt}`);
    if (max !== undefined) bounds.push(`at most ${max}`);
    if (lt !== undefined) bounds.push(`less than ${lt}`);
    if (bounds.length) text += ` ${bounds.join(' and ')}`;
  }
  const multipleOf = node.multipleOf as number | undefined;
  if (multipleOf !== undefined && multipleOf !== 1) text += `, a multiple of ${multipleOf}`;
  return text;
}

function describeArray(node: Json, defs: Record<string, Json>, depth: number): string {
  const min = node.minItems as number | undefined;
  const max = node.maxItems as number | undefined;
  const prefix = node.prefixItems as Json[] | undefined;
  if (prefix) {
    return `a list of ${prefix.length} item${prefix.length === 1 ? '' : 's'} (${prefix
      .map((item) => describeAt(item, defs, depth + 1))
      .join(', ')})`;
  }
  const element = node.items ? describeAt(node.items as Json, defs, depth + 1) : 'any value';
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

function describeObject(node: Json, defs: Record<string, Json>, depth: number): string {
  const properties = node.properties as Record<string, Json> | undefined;
  if (!properties) {
    const values = node.additionalProperties;
    if (values === undefined || values === true || values === false) return 'a mapping';
    const valueWords = describeAt(values as Json, defs, depth + 1);
    const keys = node.propertyNames
      ? plural(describeAt(node.propertyNames as Json, defs, depth + 1))
      : 'strings';
    if (valueWords === 'any value')
      return keys === 'strings' ? 'a mapping' : `a mapping with ${keys} as keys`;
    return `a mapping from ${keys} to ${plural(valueWords)}`;
  }
  const keys = Object.keys(properties);
  if (keys.length === 0 || keys.length > 4 || depth > 3) return 'a mapping';
  const required = new Set((node.required as string[] | undefined) ?? []);
  const parts = keys.map((key) => {
    const optional = required.has(key) ? '' : 'optional, ';
    return `'${key}' (${optional}${describeAt(properties[key]!, defs, depth + 1)})`;
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
  const rendered = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  return rendered.length === 1 ? (rendered[0] ?? '') : `one of ${rendered.join(', ')}`;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function joinOr(values: readonly string[]): string {
  if (values.length <= 1) return values[0] ?? 'nothing';
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** The JSON Schema node that validates `path` inside `root`, when it can be told without the value. */
export function jsonSchemaAt(root: Json, path: readonly PropertyKey[]): Json | undefined {
  const defs = (root.$defs ?? {}) as Record<string, Json>;
  let current: Json | undefined = root;
  for (const key of path) {
    if (!current) return undefined;
    current = resolve(current, defs);
    // Through a nullable (or another union): the one branch that can hold the key.
    const branches = ((current.anyOf ?? current.oneOf) as Json[] | undefined)?.map((b) => resolve(b, defs));
    if (branches) {
      const fit = branches.filter((b) =>
        typeof key === 'number' ? b.type === 'array' : b.type === 'object' && b.properties !== undefined,
      );
      if (fit.length !== 1) return undefined;
      current = fit[0]!;
    }
    if (typeof key === 'number' && current.type === 'array') {
      current = ((current.prefixItems as Json[] | undefined)?.[key] ?? current.items) as Json | undefined;
    } else if (typeof key === 'string' && current.type === 'object') {
      const properties = current.properties as Record<string, Json> | undefined;
      current = (properties?.[key] ??
        (typeof current.additionalProperties === 'object' ? current.additionalProperties : undefined)) as
        | Json
        | undefined;
    } else return undefined;
  }
  return current ? { ...current, $defs: defs } : undefined;
}
