// The experiment's `configuration` block, as Chaos Toolkit (chaostoolkit-lib 1.45.0) resolves it.

import { ConfigurationError } from '../errors/errors.js';
import type { Env } from './secrets.js';

const TYPES = ['str', 'string', 'int', 'integer', 'float', 'number', 'bytes', 'bool', 'json'] as const;

/**
 * Resolves the configuration of an experiment:
 *
 * - a value given in `extraVars` (`--var`, a var file) replaces the declaration of the same key
 *   before it is evaluated; extra keys that are not declared are ignored, as in Chaos Toolkit;
 * - `{type: 'env', key, default?, env_var_type?}` reads the environment variable `key`; when it
 *   is unset, `default` is used if the key is present (even `default: null`), otherwise it is
 *   a `ConfigurationError` naming the configuration key. An empty value is used as it is;
 * - `env_var_type` converts the text: `str`/`string` (the default), `int`/`integer`,
 *   `float`/`number`, `bool` (false when the lower-cased text is `false`, `0` or `no`, true
 *   otherwise), `json` (empty text is kept as it is), `bytes` (kept as text: JavaScript has no
 *   bytes type that survives JSON). Only text is converted; a non-text `default` is used as is;
 * - every other value is kept as it is. Dynamic configuration (`type: probe`) is left to the
 *   runner, which executes it at run start.
 */
export function resolveConfiguration(
  declared: Record<string, unknown> | null | undefined,
  extraVars: Record<string, unknown> = {},
  env: Env = process.env,
): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  if (declared === null || declared === undefined) return resolved;
  if (!isMapping(declared))
    throw new ConfigurationError('configuration must be a mapping of names to values');
  for (const [key, declaredValue] of Object.entries(declared)) {
    const value = Object.hasOwn(extraVars, key) ? extraVars[key] : declaredValue;
    resolved[key] = isMapping(value) && value.type === 'env' ? fromEnv(key, value, env) : value;
  }
  return resolved;
}

function fromEnv(name: string, reference: Record<string, unknown>, env: Env): unknown {
  const variable = reference.key;
  if (typeof variable !== 'string' || variable === '') {
    throw new ConfigurationError(
      `configuration '${name}' is an environment reference without a 'key' naming the variable`,
    );
  }
  const type = reference.env_var_type ?? 'str';
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    throw new ConfigurationError(
      `configuration '${name}' has env_var_type ${JSON.stringify(type)}; accepted: ${TYPES.join(', ')}`,
    );
  }
  const read = env[variable];
  if (read === undefined) {
    if (!Object.hasOwn(reference, 'default')) {
      throw new ConfigurationError(
        `configuration '${name}' refers to environment variable '${variable}', which is not set and has no default`,
      );
    }
    return convert(name, variable, type, reference.default, 'its default');
  }
  return convert(name, variable, type, read, `environment variable '${variable}'`);
}

function convert(name: string, variable: string, type: string, value: unknown, source: string): unknown {
  if (typeof value !== 'string') return value;
  const fail = (what: string): never => {
    throw new ConfigurationError(
      `configuration '${name}' (environment variable '${variable}', env_var_type ${type}): ${source} is not ${what}: ${JSON.stringify(value)}`,
    );
  };
  switch (type) {
    case 'int':
    case 'integer': {
      const text = value.trim();
      if (!/^[+-]?\d+$/.test(text)) return fail('an integer');
      return Number.parseInt(text, 10);
    }
    case 'float':
    case 'number': {
      const text = value.trim();
      const number = Number(text);
      if (text === '' || Number.isNaN(number)) return fail('a number');
      return number;
    }
    case 'bool':
      return !['false', '0', 'no'].includes(value.toLowerCase());
    case 'json':
      if (value === '') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return fail('valid JSON');
      }
    default:
      return value;
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
