import { describe, expect, it } from 'vitest';
import { isChaosError } from '../errors/errors.js';
import { resolveConfiguration } from './configuration.js';

const env = {
  NS: 'chaos',
  EMPTY: '',
  COUNT: ' 42 ',
  RATIO: '0.25',
  YES: 'yes',
  NO: 'No',
  ZERO: '0',
  FALSE: 'FALSE',
  JSON_LIST: '[1, "a"]',
  JSON_OBJECT: '{"a": {"b": true}}',
  WORD: 'abc',
};

describe('resolveConfiguration', () => {
  it.each<[string, unknown, unknown]>([
    ['a literal string', 'default', 'default'],
    ['a literal number', 8, 8],
    ['a nested object is kept', { a: { b: [1, 2] } }, { a: { b: [1, 2] } }],
    ['a mapping with another type is kept', { type: 'probe', name: 'x' }, { type: 'probe', name: 'x' }],
    ['env', { type: 'env', key: 'NS' }, 'chaos'],
    ['empty env value is used, not the default', { type: 'env', key: 'EMPTY', default: 'x' }, ''],
    ['default when unset', { type: 'env', key: 'UNSET', default: 'fallback' }, 'fallback'],
    ['default: null counts as a default', { type: 'env', key: 'UNSET', default: null }, null],
    ['a non-text default is kept as is', { type: 'env', key: 'UNSET', default: 5, env_var_type: 'int' }, 5],
    ['a text default is converted', { type: 'env', key: 'UNSET', default: '7', env_var_type: 'int' }, 7],
    ['str', { type: 'env', key: 'COUNT', env_var_type: 'str' }, ' 42 '],
    ['string', { type: 'env', key: 'NS', env_var_type: 'string' }, 'chaos'],
    ['int', { type: 'env', key: 'COUNT', env_var_type: 'int' }, 42],
    ['integer', { type: 'env', key: 'ZERO', env_var_type: 'integer' }, 0],
    ['float', { type: 'env', key: 'RATIO', env_var_type: 'float' }, 0.25],
    ['number', { type: 'env', key: 'COUNT', env_var_type: 'number' }, 42],
    ['bool yes', { type: 'env', key: 'YES', env_var_type: 'bool' }, true],
    ['bool No', { type: 'env', key: 'NO', env_var_type: 'bool' }, false],
    ['bool 0', { type: 'env', key: 'ZERO', env_var_type: 'bool' }, false],
    ['bool FALSE', { type: 'env', key: 'FALSE', env_var_type: 'bool' }, false],
    ['bool anything else', { type: 'env', key: 'WORD', env_var_type: 'bool' }, true],
    ['json list', { type: 'env', key: 'JSON_LIST', env_var_type: 'json' }, [1, 'a']],
    ['json object', { type: 'env', key: 'JSON_OBJECT', env_var_type: 'json' }, { a: { b: true } }],
    ['json empty is kept', { type: 'env', key: 'EMPTY', env_var_type: 'json' }, ''],
    ['bytes stay text', { type: 'env', key: 'WORD', env_var_type: 'bytes' }, 'abc'],
  ])('%s', (_case, declared, expected) => {
    expect(resolveConfiguration({ value: declared }, {}, env)).toEqual({ value: expected });
  });

  it.each([null, undefined])('%s declares nothing', (declared) => {
    expect(resolveConfiguration(declared, {}, env)).toEqual({});
  });

  it('extra vars replace declarations and win; undeclared extra vars are ignored', () => {
    expect(
      resolveConfiguration(
        { ns: { type: 'env', key: 'UNSET' }, replicas: 1, kept: 'k' },
        { ns: 'from-var', replicas: 3, undeclared: true },
        env,
      ),
    ).toEqual({ ns: 'from-var', replicas: 3, kept: 'k' });
  });

  it('an extra var that is itself an environment reference is evaluated', () => {
    expect(resolveConfiguration({ ns: 'x' }, { ns: { type: 'env', key: 'NS' } }, env)).toEqual({
      ns: 'chaos',
    });
  });

  it('does not mutate its input', () => {
    const declared = { a: { type: 'env', key: 'NS' } };
    resolveConfiguration(declared, {}, env);
    expect(declared).toEqual({ a: { type: 'env', key: 'NS' } });
  });

  it.each<[string, unknown, RegExp]>([
    [
      'missing variable without default',
      { type: 'env', key: 'UNSET' },
      /^configuration 'value' refers to environment variable 'UNSET', which is not set and has no default$/,
    ],
    ['no key', { type: 'env' }, /configuration 'value' is an environment reference without a 'key'/],
    [
      'unknown env_var_type',
      { type: 'env', key: 'NS', env_var_type: 'list' },
      /configuration 'value' has env_var_type "list"; accepted: str, string, int/,
    ],
    [
      'not an integer',
      { type: 'env', key: 'RATIO', env_var_type: 'int' },
      /configuration 'value' .*'RATIO'.* is not an integer: "0.25"/,
    ],
    [
      'not a number',
      { type: 'env', key: 'WORD', env_var_type: 'float' },
      /configuration 'value' .* is not a number/,
    ],
    [
      'not JSON',
      { type: 'env', key: 'WORD', env_var_type: 'json' },
      /configuration 'value' .* is not valid JSON/,
    ],
  ])('%s', (_case, declared, message) => {
    let caught: unknown;
    try {
      resolveConfiguration({ value: declared }, {}, env);
    } catch (error) {
      caught = error;
    }
    expect(isChaosError(caught, 'ConfigurationError')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});
