import { describe, expect, it } from 'vitest';
import {
  type LabelRequirement,
  LabelSelectorError,
  matchesLabels,
  parseLabelSelector,
} from './label-selector.js';

const req = (
  key: string,
  operator: LabelRequirement['operator'],
  values: string[] = [],
): LabelRequirement => ({
  key,
  operator,
  values,
});

describe('parseLabelSelector: valid selectors', () => {
  it.each<[string, LabelRequirement[]]>([
    ['', []],
    ['   ', []],
    ['app', [req('app', 'exists')]],
    ['!canary', [req('canary', '!')]],
    ['! canary', [req('canary', '!')]],
    ['app=web', [req('app', '=', ['web'])]],
    ['app==web', [req('app', '==', ['web'])]],
    ['app!=web', [req('app', '!=', ['web'])]],
    ['a=', [req('a', '=', [''])]],
    ['a=,b', [req('a', '=', ['']), req('b', 'exists')]],
    ['app=web,tier!=db', [req('app', '=', ['web']), req('tier', '!=', ['db'])]],
    ['  app = web ,  tier != db  ', [req('app', '=', ['web']), req('tier', '!=', ['db'])]],
    ['name in (web)', [req('name', 'in', ['web'])]],
    ['name in(web)', [req('name', 'in', ['web'])]],
    ['tier notin (b, a)', [req('tier', 'notin', ['a', 'b'])]],
    ['tier in (a,b,a)', [req('tier', 'in', ['a', 'b'])]],
    // The apiserver reads `()` as the set holding the empty value, not as an empty set.
    ['app in ()', [req('app', 'in', [''])]],
    ['app in (a,)', [req('app', 'in', ['', 'a'])]],
    ['app in (a,,b)', [req('app', 'in', ['', 'a', 'b'])]],
    ['app.kubernetes.io/name=x', [req('app.kubernetes.io/name', '=', ['x'])]],
    ['example.com/My_Name.v2=A-b_c.9', [req('example.com/My_Name.v2', '=', ['A-b_c.9'])]],
    ['in=notin', [req('in', '=', ['notin'])]],
    ['k in (in,notin)', [req('k', 'in', ['in', 'notin'])]],
    ['replicas>2,weight<10', [req('replicas', 'gt', ['2']), req('weight', 'lt', ['10'])]],
    ['a\tin\n(x)\r', [req('a', 'in', ['x'])]],
    [`${'k'.repeat(63)}=${'v'.repeat(63)}`, [req('k'.repeat(63), '=', ['v'.repeat(63)])]],
  ])('%j', (text, expected) => {
    expect(parseLabelSelector(text)).toEqual(expected);
  });
});

describe('parseLabelSelector: invalid selectors', () => {
  it.each<[string, number, string]>([
    ['name (web)', 5, "unexpected '(' at position 5: expected an operator (=, ==, !=, in, notin, >, <)"],
    ['app=we b', 7, "unexpected 'b' at position 7: expected ',' or the end of the selector"],
    ['=web', 0, "unexpected '=' at position 0: expected a label key or '!'"],
    ['app in (a,b', 11, "unexpected end of selector at position 11: expected ',' or ')'"],
    ['app in a', 7, "unexpected 'a' at position 7: expected '(' after 'in'"],
    ['app in (a b)', 10, "unexpected 'b' at position 10: expected ',' or ')'"],
    ['app in (a,,)', 11, "unexpected ')' at position 11: expected a value or ','"],
    ['app in', 6, "unexpected end of selector at position 6: expected '(' after 'in'"],
    ['app=web,', 8, "unexpected end of selector at position 8: expected a label key or '!' after ','"],
    [',app', 0, "unexpected ',' at position 0: expected a label key or '!'"],
    ['a,,b', 2, "unexpected ',' at position 2: expected a label key or '!' after ','"],
    ['!', 1, 'unexpected end of selector at position 1: expected a label key'],
    ['!a=b', 2, "unexpected '=' at position 2: expected ',' or the end of the selector"],
    ['a==(', 3, "unexpected '(' at position 3: expected a value after '=='"],
    ['a=!b', 2, "unexpected '!' at position 2: expected a value after '='"],
    ['a b', 2, "unexpected 'b' at position 2: expected an operator (=, ==, !=, in, notin, >, <)"],
    ['app=w@b', 4, 'invalid value'],
    ['app=-web', 4, 'invalid value'],
    [`app=${'v'.repeat(64)}`, 4, 'at most 63 characters'],
    ['-app=x', 0, 'invalid label key'],
    [`${'k'.repeat(64)}=x`, 0, 'at most 63 characters'],
    ['/name=x', 0, "the prefix before '/' must not be empty"],
    ['Example.com/name=x', 0, 'lowercase DNS subdomain'],
    ['a/b/c=x', 0, "at most one '/'"],
    ['example.com/=x', 0, 'the name must not be empty'],
    [`${'a'.repeat(254)}/name=x`, 0, 'at most 253 characters'],
    ['x in (a,b@)', 8, 'invalid value'],
    ['n>a', 2, "invalid value 'a' at position 2: '>' needs an integer"],
    ['n<', 2, "'<' needs an integer"],
    ['n>99999999999999999999', 2, 'needs an integer'],
  ])('%j', (text, position, message) => {
    let caught: unknown;
    try {
      parseLabelSelector(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LabelSelectorError);
    expect((caught as LabelSelectorError).position).toBe(position);
    expect((caught as LabelSelectorError).message).toContain(message);
  });
});

describe('matchesLabels', () => {
  const labels = { app: 'web', tier: 'front', empty: '', replicas: '3' };
  it.each<[string, boolean]>([
    ['', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['app=web', true],
    ['app==db', false],
    ['app!=db', true],
    ['missing!=db', true],
    ['missing=', false],
    ['empty=', true],
    ['empty in ()', true],
    ['tier in (back,front)', true],
    ['tier in (back)', false],
    ['missing in (x)', false],
    ['tier notin (back)', true],
    ['tier notin (front)', false],
    ['missing notin (x)', true],
    ['replicas>2', true],
    ['replicas>3', false],
    ['replicas<4', true],
    ['app>1', false],
    ['missing<100', false],
    ['app=web,tier in (front),!canary', true],
    ['app=web,tier=back', false],
  ])('%j → %s', (text, expected) => {
    expect(matchesLabels(parseLabelSelector(text), labels)).toBe(expected);
  });

  it('does not see inherited properties as labels', () => {
    expect(matchesLabels(parseLabelSelector('toString'), {})).toBe(false);
  });
});
