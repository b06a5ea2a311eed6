import type { AnyActivity, JsonSchema } from '@chaoskit/core';

// Any argument may be written as a ${name} reference to the configuration or the secrets.
const REFERENCE = { type: 'string', pattern: '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$' };
const ALIASES: Record<string, string> = { chaoscluster: 'chaosk8s', chaosmesh: 'chaosistio' };

function argumentsSchema(activity: AnyActivity): JsonSchema {
  const {
    $schema: _drop,
    title: _t,
    description: _d,
    properties,
    ...rest
  } = activity.jsonSchema() as JsonSchema & {
    properties?: Record<string, JsonSchema>;
  };
  return {
    ...rest,
    properties: Object.fromEntries(
      Object.entries(properties ?? {}).map(([name, schema]) => [name, { anyOf: [schema, REFERENCE] }]),
    ),
  };
}

function pythonProvider(activity: AnyActivity): JsonSchema {
  const [prefix, ...rest] = activity.module.split('.');
  const alias = ALIASES[prefix!];
  return {
    type: 'object',
    description: `${activity.qualifiedName}: ${activity.doc}`,
    required: ['type', 'module', 'func'],
    properties: {
      type: { const: 'python' },
      module: { enum: alias ? [activity.module, [alias, ...rest].join('.')] : [activity.module] },
      func: { const: activity.name },
      arguments: argumentsSchema(activity),
      secrets: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  };
}

/** The JSON Schema (2020-12) of experiment files, with the arguments of every given activity. */
export function experimentSchema(activities: readonly AnyActivity[]): JsonSchema {
  const providers = activities.map(pythonProvider);
  const activity = {
    anyOf: [
      { type: 'object', required: ['ref'], properties: { ref: { type: 'string', minLength: 1 } } },
      {
        type: 'object',
        required: ['type', 'name', 'provider'],
        properties: {
          type: { enum: ['probe', 'action'] },
          name: { type: 'string', minLength: 1 },
          provider: {
            anyOf: [
              ...providers,
              {
                type: 'object',
                required: ['type', 'path'],
                properties: {
                  type: { const: 'process' },
                  path: { type: 'string' },
                  arguments: {},
                  timeout: { type: 'number' },
                },
              },
              {
                type: 'object',
                required: ['type', 'url'],
                properties: {
                  type: { const: 'http' },
                  url: { type: 'string' },
                  method: { type: 'string' },
                  headers: { type: 'object' },
                  arguments: {},
                  timeout: {},
                },
              },
            ],
          },
          pauses: {
            type: 'object',
            properties: {
              before: { anyOf: [{ type: 'number', minimum: 0 }, REFERENCE] },
              after: { anyOf: [{ type: 'number', minimum: 0 }, REFERENCE] },
            },
          },
          tolerance: {},
          background: { type: 'boolean' },
        },
      },
    ],
  };
  const list = { type: 'array', items: { $ref: '#/$defs/activity' } };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'chaoskit experiment (Chaos Toolkit format)',
    type: 'object',
    required: ['title', 'description', 'method'],
    properties: {
      title: { type: 'string', minLength: 1 },
      description: { type: 'string', minLength: 1 },
      tags: { type: 'array', items: { type: 'string', minLength: 1 } },
      configuration: { type: 'object' },
      secrets: { type: 'object', additionalProperties: { type: 'object' } },
      'steady-state-hypothesis': {
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string' }, probes: list },
      },
      method: list,
      rollbacks: list,
    },
    $defs: { activity },
  };
}
