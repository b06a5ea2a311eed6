// The experiment's `secrets` block, as Chaos Toolkit (chaostoolkit-lib 1.45.0) resolves it, and
// the selection of the groups a python provider lists in `provider.secrets` (D67, D68:
// docs/decisions.md).

import { ConfigurationError } from '../errors/errors.js';
import { registerSecret } from '../errors/redact.js';

export type Env = Record<string, string | undefined>;

/** Resolved secrets: group name → key → value. */
export type ResolvedSecrets = Record<string, Record<string, unknown>>;

/**
 * Resolves every group of an experiment's `secrets` block. A value is a literal, an
 * environment reference `{type: 'env', key: 'NAME'}` or a nested mapping (resolved the same
 * way). Every resolved string is registered with `redact`, so it never appears in an error,
 * a log or a journal.
 *
 * `overrides` (secrets from a var file) replace a whole group, not key by key, as Chaos
 * Toolkit does.
 */
export function resolveSecrets(
  declared: Record<string, unknown> | null | undefined,
  env: Env = process.env,
  overrides: Record<string, unknown> = {},
): ResolvedSecrets {
  const resolved: ResolvedSecrets = {};
  if (declared === null || declared === undefined) return resolved;
  if (!isMapping(declared))
    throw new ConfigurationError('secrets must be a mapping of group names to mappings');
  for (const [group, declaredGroup] of Object.entries(declared)) {
    const value =
      Object.hasOwn(overrides, group) && overrides[group] != null ? overrides[group] : declaredGroup;
    if (!isMapping(value)) {
      throw new ConfigurationError(`secret group '${group}' must be a mapping of keys to values`);
    }
    if (value.type === 'env' || value.type === 'vault') {
      throw new ConfigurationError(
        `secret group '${group}' must be a mapping of keys to values; a {type: ${String(value.type)}} reference is only allowed as the value of a key`,
      );
    }
    resolved[group] = resolveMapping(value, group, [], env);
  }
  return resolved;
}

function resolveMapping(
  mapping: Record<string, unknown>,
  group: string,
  path: string[],
  env: Env,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(mapping)) {
    out[key] = resolveValue(value, group, [...path, key], env);
  }
  return out;
}

function resolveValue(value: unknown, group: string, path: string[], env: Env): unknown {
  const name = path.join('.');
  if (isMapping(value)) {
    if (value.type === 'env') {
      if (typeof value.key !== 'string' || value.key === '') {
        throw new ConfigurationError(
          `secret '${name}' of group '${group}' is an environment reference without a 'key' naming the variable`,
        );
      }
      const read = env[value.key];
      if (read === undefined) {
        throw new ConfigurationError(
          `secret '${name}' of group '${group}' refers to environment variable '${value.key}', which is not set`,
        );
      }
      registerSecret(read);
      return read;
    }
    if (value.type === 'vault') {
      throw new ConfigurationError(
        `secret '${name}' of group '${group}' is a vault reference; chaoskit reads secrets from literals and environment variables ({type: env, key: NAME}) only`,
      );
    }
    return resolveMapping(value, group, path, env);
  }
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, group, path, env));
  registerSecret(value);
  return value;
}

// Keys of the Python originals (`KUBERNETES_HOST`, `KUBERNETES_API_KEY`, …) are also visible
// under chaoskit's names (`CLUSTER_HOST`, …), so chaosk8s experiments run unchanged.
const ALIAS_FROM = 'KUBERNETES_';
const ALIAS_TO = 'CLUSTER_';

/**
 * The secrets one activity receives: the groups it names in `provider.secrets`, merged in
 * order (a later group wins on equal keys). No names → an empty mapping.
 *
 * Every `KUBERNETES_X` key is also visible as `CLUSTER_X`, unless `CLUSTER_X` is given.
 *
 * D67 (docs/decisions.md): in Chaos Toolkit an unknown group name silently contributes
 * nothing, so a typo in `provider.secrets` surfaces later as a confusing authentication
 * failure. Here it is a `ConfigurationError` naming the group.
 */
export function secretsFor(
  resolved: ResolvedSecrets,
  groupNames: readonly string[] | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const group of groupNames ?? []) {
    const values = Object.hasOwn(resolved, group) ? resolved[group] : undefined;
    if (values === undefined) {
      const declared = Object.keys(resolved);
      throw new ConfigurationError(
        `the activity asks for secret group '${group}', which the experiment's secrets do not declare (${
          declared.length ? `declared: ${declared.map((g) => `'${g}'`).join(', ')}` : 'none are declared'
        })`,
      );
    }
    Object.assign(merged, values);
  }
  for (const [key, value] of Object.entries(merged)) {
    if (!key.startsWith(ALIAS_FROM)) continue;
    const alias = ALIAS_TO + key.slice(ALIAS_FROM.length);
    if (!Object.hasOwn(merged, alias)) merged[alias] = value;
  }
  return merged;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
