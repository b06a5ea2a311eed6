// The tree jsonpath2's grammar gives, where it differs from what a reader of standard JSONPath
// expects. Its results are checked against jsonpath2 itself in
// packages/conformance/src/differential/jsonpath.test.ts.
import { expect, it } from 'vitest';
import { parseJsonPath } from './parse.js';
import type { Selector } from './syntax.js';

const onlySelector = (path: string): Selector => {
  const [step] = parseJsonPath(path).steps;
  return step?.selectors[0] as Selector;
};

it("binds `or` tighter than `and`, as jsonpath2's grammar does", () => {
  const filter = onlySelector('$[?(@.a or @.b and @.c)]');
  expect(filter.kind === 'filter' && filter.test).toMatchObject({
    kind: 'and',
    tests: [{ kind: 'or', tests: [{ kind: 'some' }, { kind: 'some' }] }, { kind: 'some' }],
  });
});

it('takes a name in quotes as written, decoding no escape', () => {
  expect(onlySelector('$["a\\"b\\u0041"]')).toEqual({ kind: 'name', name: 'a\\"b\\u0041' });
});

it('marks a number written with a fraction or an exponent: Python reads it as a float', () => {
  const call = onlySelector('$.charAt(1.0)');
  expect(call.kind === 'call' && call.args).toEqual([{ kind: 'value', value: 1, float: true }]);
  const whole = onlySelector('$.charAt(1)');
  expect(whole.kind === 'call' && whole.args).toEqual([{ kind: 'value', value: 1 }]);
});

it('reads a slice as jsonpath2 does: start, end and step each optional', () => {
  expect(onlySelector('$[::2]')).toEqual({ kind: 'slice', step: 2 });
  expect(onlySelector('$[:3:]')).toEqual({ kind: 'slice', end: 3 });
  expect(onlySelector('$[-1:]')).toEqual({ kind: 'slice', start: -1 });
});

it('keeps a key such as __proto__ of a literal as a key', () => {
  const filter = onlySelector('$[?(@ = {"__proto__": 1})]');
  const right = filter.kind === 'filter' && filter.test.kind === 'compare' ? filter.test.right : undefined;
  expect(right?.kind === 'value' && Object.keys(right.value as object)).toEqual(['__proto__']);
});
