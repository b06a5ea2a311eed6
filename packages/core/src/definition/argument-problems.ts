// From a zod issue to what an InvalidArgument says: which argument, what is accepted there (in
// words), and what was received.

import type { z } from 'zod';
import { describeJson, inputJsonSchema, jsonSchemaAt } from './describe-schema.js';
import { renderValue } from './render-value.js';

/** Experiment names (snake_case) or the camelCase export's names, as the caller wrote them. */
export type Naming = (argument: string) => string;

export interface Problem {
  argument?: string;
  accepted: string;
  received?: string;
}

type Shape = Record<string, z.core.$ZodType>;

export function problemFromIssue(
  issue: z.core.$ZodIssue,
  shape: Shape,
  input: Record<string, unknown>,
  naming: Naming,
): Problem {
  const [first, ...rest] = issue.path;
  if (first === undefined) {
    return { accepted: 'a mapping of argument names to values', received: renderValue(input) };
  }
  const key = String(first);
  const argSchema = shape[key];
  const argument = naming(key);
  const value = valueAt(input, issue.path);
  const authored = issue.code === 'custom' && issue.message && issue.message !== 'Invalid input';
  const root = argSchema ? inputJsonSchema(argSchema) : undefined;
  if (rest.length === 0) {
    if (value === undefined && argSchema?._zod.optin === undefined) {
      return {
        argument,
        accepted: root ? describeJson(root) : 'a value',
        received: 'nothing: the argument is required',
      };
    }
    return {
      argument,
      accepted: authored ? issue.message : root ? describeJson(root) : 'a valid value',
      received: renderValue(value),
    };
  }
  const location = `${argument}${rest.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
  const inner = root ? jsonSchemaAt(root, rest) : undefined;
  if (issue.code === 'unrecognized_keys') {
    return {
      argument,
      accepted: `${inner ? describeJson(inner) : 'a mapping'} at ${location}`,
      received: `the unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`,
    };
  }
  const expected = authored ? issue.message : inner ? describeJson(inner) : 'a valid value';
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
