// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject under test, not template literals.
import { describe, expect, it } from 'vitest';
import { findUndefinedReferences, renderForSubstitution, substitute } from './substitute.js';

const configuration = {
  n: 8,
  f: 1.5,
  ns: 'chaos',
  yes: true,
  nothing: null,
  d: { a: 1 },
  l: [1, 'a'],
  shadowed: 'from-configuration',
};
const secrets = {
  g1: { K: 'g1-value', shadowed: 'from-secret', TOKEN: 'tok' },
  g2: { K: 'g2-value', Z: 'z-from-g2' },
};

describe('substitute', () => {
  it.each<[string, unknown, unknown]>([
    ['whole ${name} keeps a number', '${n}', 8],
    ['whole ${name} keeps a float', '${f}', 1.5],
    ['whole ${name} keeps a boolean', '${yes}', true],
    ['whole ${name} keeps null', '${nothing}', null],
    ['whole ${name} keeps an object', '${d}', { a: 1 }],
    ['whole ${name} keeps a list', '${l}', [1, 'a']],
    ['bare $name alone becomes text', '$n', '8'],
    ['inside text', 'hello ${n}', 'hello 8'],
    ['bare inside text', 'ns=$ns!', 'ns=chaos!'],
    ['boolean in text', 'x=${yes}', 'x=true'],
    ['null in text', 'x=${nothing}', 'x=null'],
    ['object in text is JSON', 'x=${d}', 'x={"a":1}'],
    ['list in text is JSON', 'x=${l}', 'x=[1,"a"]'],
    ['several', '${ns}/${n}/$f', 'chaos/8/1.5'],
    ['$$ escapes', 'a $$ b', 'a $ b'],
    ['$${name} is literal', 'cost $${n}', 'cost ${n}'],
    ['unknown braced left verbatim', '${missing}', '${missing}'],
    ['unknown bare left verbatim', 'file $MY_FILE', 'file $MY_FILE'],
    ['not a name: dotted', '${foo.bar}', '${foo.bar}'],
    ['not a name: space', '${ ns}', '${ ns}'],
    ['not a name: digit', '$1abc', '$1abc'],
    ['lone dollar', 'costs 5$', 'costs 5$'],
    ['case-sensitive', '${NS}', '${NS}'],
    ['configuration before secrets', '${shadowed}', 'from-configuration'],
    ['first secret group wins', '${K}', 'g1-value'],
    ['any secret group, not only listed ones', '${Z}', 'z-from-g2'],
    ['bare name stops at a non-name character', '$ns-$n', 'chaos-8'],
    ['bare name takes the longest name', '$nsx', '$nsx'],
    ['numbers untouched', 5, 5],
    ['booleans untouched', false, false],
    ['null untouched', null, null],
    ['empty string', '', ''],
    ['list recursion', ['${n}', ['${ns}', ['$n']], 3], [8, ['chaos', ['8']], 3]],
    [
      'mapping values, not keys',
      { '${ns}': '${ns}', nested: { count: '${n}', list: ['${yes}'] } },
      { '${ns}': 'chaos', nested: { count: 8, list: [true] } },
    ],
  ])('%s', (_case, input, expected) => {
    expect(substitute(input, configuration, secrets)).toEqual(expected);
  });

  it('does not mutate its input', () => {
    const input = { a: ['${n}', { b: '${ns}' }] };
    const copy = structuredClone(input);
    const out = substitute(input, configuration, secrets);
    expect(input).toEqual(copy);
    expect(out).not.toBe(input);
  });

  it('works without configuration or secrets', () => {
    expect(substitute('${n} $$', undefined, undefined)).toBe('${n} $');
    expect(substitute({ a: '${TOKEN}' }, null, secrets)).toEqual({ a: 'tok' });
  });

  it('leaves non-plain objects alone', () => {
    const date = new Date(0);
    expect(substitute(date, configuration, secrets)).toBe(date);
  });
});

describe('renderForSubstitution', () => {
  it.each<[unknown, string]>([
    ['text', 'text'],
    [3, '3'],
    [true, 'true'],
    [null, 'null'],
    [{ a: [1] }, '{"a":[1]}'],
  ])('%j', (value, text) => {
    expect(renderForSubstitution(value)).toBe(text);
  });
});

describe('findUndefinedReferences', () => {
  it.each<[string, unknown, string[]]>([
    ['nothing to find', { a: 'plain', b: 3 }, []],
    ['defined in configuration', '${n}', []],
    ['defined in a secret group', 'Bearer ${TOKEN}', []],
    ['undefined, braced', { a: '${missing}', b: ['x ${other} ${missing}'] }, ['missing', 'other']],
    ['bare $name is not reported', '$HOME and $PATH', []],
    ['escaped is not reported', '$${missing}', []],
    ['keys are not inspected', { '${missing}': 1 }, []],
    ['case-sensitive', '${NS}', ['NS']],
  ])('%s', (_case, value, expected) => {
    expect(findUndefinedReferences(value, configuration, secrets)).toEqual(expected);
  });

  it('works without configuration or secrets', () => {
    expect(findUndefinedReferences(['${a}', '${b}'])).toEqual(['a', 'b']);
  });
});
