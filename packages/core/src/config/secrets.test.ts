import { afterEach, describe, expect, it } from 'vitest';
import { isChaosError } from '../errors/errors.js';
import { clearSecretsForTests, redact } from '../errors/redact.js';
import { resolveSecrets, secretsFor } from './secrets.js';

afterEach(() => clearSecretsForTests());

const env = { K8S_TOKEN: 'tok-123456', K8S_HOST: 'https://k8s.example:6443', EMPTY: '' };

describe('resolveSecrets', () => {
  it.each<[string, Record<string, unknown>, Record<string, Record<string, unknown>>]>([
    ['literal', { k8s: { CLUSTER_CONTEXT: 'kind-chaos' } }, { k8s: { CLUSTER_CONTEXT: 'kind-chaos' } }],
    [
      'environment reference',
      {
        k8s: {
          CLUSTER_API_KEY: { type: 'env', key: 'K8S_TOKEN' },
          CLUSTER_HOST: { type: 'env', key: 'K8S_HOST' },
        },
      },
      { k8s: { CLUSTER_API_KEY: 'tok-123456', CLUSTER_HOST: 'https://k8s.example:6443' } },
    ],
    ['empty environment value is kept', { g: { A: { type: 'env', key: 'EMPTY' } } }, { g: { A: '' } }],
    [
      'nested mapping',
      { g: { nested: { token: { type: 'env', key: 'K8S_TOKEN' }, port: 6443 } } },
      { g: { nested: { token: 'tok-123456', port: 6443 } } },
    ],
    [
      'a mapping with another type is a plain mapping',
      { g: { x: { type: 'other', a: 1 } } },
      { g: { x: { type: 'other', a: 1 } } },
    ],
    ['several groups', { a: { K: 1 }, b: { K: 2 } }, { a: { K: 1 }, b: { K: 2 } }],
  ])('%s', (_case, declared, expected) => {
    expect(resolveSecrets(declared, env)).toEqual(expected);
  });

  it.each([null, undefined])('%s declares nothing', (declared) => {
    expect(resolveSecrets(declared, env)).toEqual({});
  });

  it('registers every resolved string with redact', () => {
    resolveSecrets(
      { k8s: { CLUSTER_API_KEY: { type: 'env', key: 'K8S_TOKEN' }, CLUSTER_PASSWORD: 'hunter22' } },
      env,
    );
    expect(redact('key tok-123456 and pass hunter22')).toBe('key *** and pass ***');
  });

  it('replaces a whole group with an override', () => {
    expect(resolveSecrets({ g: { A: 'a', B: 'b' } }, env, { g: { A: 'x' } })).toEqual({ g: { A: 'x' } });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'missing environment variable',
      { k8s: { CLUSTER_API_KEY: { type: 'env', key: 'NOPE' } } },
      /^secret 'CLUSTER_API_KEY' of group 'k8s' refers to environment variable 'NOPE', which is not set$/,
    ],
    [
      'missing nested environment variable',
      { k8s: { auth: { token: { type: 'env', key: 'NOPE' } } } },
      /^secret 'auth\.token' of group 'k8s' refers to environment variable 'NOPE'/,
    ],
    [
      'reference without key',
      { k8s: { A: { type: 'env' } } },
      /secret 'A' of group 'k8s' .* without a 'key'/,
    ],
    ['vault', { k8s: { A: { type: 'vault', path: 'x' } } }, /secret 'A' of group 'k8s' is a vault reference/],
    ['group not a mapping', { k8s: 'token' }, /secret group 'k8s' must be a mapping/],
    [
      'group is a reference',
      { k8s: { type: 'env', key: 'K8S_TOKEN' } },
      /secret group 'k8s' must be a mapping .* only allowed as the value of a key/,
    ],
  ])('%s', (_case, declared, message) => {
    let caught: unknown;
    try {
      resolveSecrets(declared, env);
    } catch (error) {
      caught = error;
    }
    expect(isChaosError(caught, 'ConfigurationError')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});

describe('secretsFor', () => {
  const resolved = {
    k8s: { CLUSTER_CONTEXT: 'kind-a', CLUSTER_HOST: 'https://a' },
    other: { CLUSTER_CONTEXT: 'kind-b', TOKEN: 't' },
    legacy: { KUBERNETES_CONTEXT: 'kind-legacy', KUBERNETES_API_KEY: 'key' },
    mixed: { KUBERNETES_HOST: 'https://old', CLUSTER_HOST: 'https://new' },
  };

  it.each<[string, string[] | undefined, Record<string, unknown>]>([
    ['no groups listed', undefined, {}],
    ['empty list', [], {}],
    ['one group', ['k8s'], { CLUSTER_CONTEXT: 'kind-a', CLUSTER_HOST: 'https://a' }],
    [
      'later group wins',
      ['k8s', 'other'],
      { CLUSTER_CONTEXT: 'kind-b', CLUSTER_HOST: 'https://a', TOKEN: 't' },
    ],
    [
      'earlier group loses',
      ['other', 'k8s'],
      { CLUSTER_CONTEXT: 'kind-a', CLUSTER_HOST: 'https://a', TOKEN: 't' },
    ],
    [
      'KUBERNETES_ keys are also CLUSTER_ keys',
      ['legacy'],
      {
        KUBERNETES_CONTEXT: 'kind-legacy',
        KUBERNETES_API_KEY: 'key',
        CLUSTER_CONTEXT: 'kind-legacy',
        CLUSTER_API_KEY: 'key',
      },
    ],
    [
      'an explicit CLUSTER_ key is not overwritten',
      ['mixed'],
      { KUBERNETES_HOST: 'https://old', CLUSTER_HOST: 'https://new' },
    ],
    [
      'an explicit CLUSTER_ key from another group is not overwritten',
      ['k8s', 'legacy'],
      {
        CLUSTER_CONTEXT: 'kind-a',
        CLUSTER_HOST: 'https://a',
        KUBERNETES_CONTEXT: 'kind-legacy',
        KUBERNETES_API_KEY: 'key',
        CLUSTER_API_KEY: 'key',
      },
    ],
  ])('%s', (_case, groups, expected) => {
    expect(secretsFor(resolved, groups)).toEqual(expected);
  });

  it('does not change the resolved groups', () => {
    secretsFor(resolved, ['legacy']);
    expect(resolved.legacy).toEqual({ KUBERNETES_CONTEXT: 'kind-legacy', KUBERNETES_API_KEY: 'key' });
  });

  it.each<[Record<string, Record<string, unknown>>, RegExp]>([
    [
      resolved,
      /secret group 'k8z', which the experiment's secrets do not declare \(declared: 'k8s', 'other', 'legacy', 'mixed'\)/,
    ],
    [{}, /secret group 'k8z', .*none are declared/],
  ])('an unknown group is an error naming it', (groups, message) => {
    let caught: unknown;
    try {
      secretsFor(groups, ['k8z']);
    } catch (error) {
      caught = error;
    }
    expect(isChaosError(caught, 'ConfigurationError')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});
