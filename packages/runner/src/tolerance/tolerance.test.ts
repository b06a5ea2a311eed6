// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject under test, not template literals.
import { describe, expect, it } from 'vitest';
import { jsonEqual, validateTolerance, withinTolerance } from './tolerance.js';

const WHERE = "steady-state probe 'app-ok'";

describe('validateTolerance', () => {
  const valid: [string, unknown][] = [
    ['true', true],
    ['false', false],
    ['integer', 200],
    ['zero', 0],
    ['negative integer', -1],
    ['1.0 (a JSON integer in JS)', 1.0],
    ['string', 'ok'],
    ['empty string', ''],
    ['placeholder string', '${expected}'],
    ['list', [200, 301]],
    ['empty list', []],
    ['regex', { type: 'regex', pattern: '[0-9]{2}' }],
    ['regex with target', { type: 'regex', pattern: 'ok', target: 'stdout' }],
    [
      'regex with placeholder (compiles as JS)',
      { type: 'regex', pattern: '^[0-9] \\$\\{level\\} ${msg} - done$' },
    ],
    ['jsonpath', { type: 'jsonpath', path: '$.foo[*].baz' }],
    [
      'jsonpath with filter',
      { type: 'jsonpath', path: '$.items[*][?(@.status.phase = "Running")]', count: 2 },
    ],
    ['jsonpath count 0', { type: 'jsonpath', path: '$.a', count: 0 }],
    ['jsonpath with expect', { type: 'jsonpath', path: '$.RecordData[0]', expect: ['x'] }],
    ['jsonpath bracket in a string', { type: 'jsonpath', path: '$.a[?(@.x = "a]b")]' }],
    ['jsonpath with placeholder', { type: 'jsonpath', path: '$.foo[?(@.baz="${msg}")]' }],
    ['range', { type: 'range', range: [10, 800.8] }],
    ['range equal bounds', { type: 'range', range: [5, 5] }],
    ['probe', { type: 'probe', name: 'p', provider: { type: 'process', path: 'true' } }],
  ];
  it.each(valid)('accepts %s', (_name, tolerance) => {
    expect(validateTolerance(tolerance, WHERE)).toBeUndefined();
  });

  const invalid: [string, unknown, string][] = [
    ['float', 0.5, 'tolerance must either be an integer, a string, a boolean or a pair of values'],
    [
      'null',
      null,
      'tolerance must either be an integer, a string, a boolean or a pair of values for boundaries',
    ],
    ['undefined', undefined, '(got undefined)'],
    ['mapping without type', { pattern: 'x' }, 'a tolerance mapping must have a `type`'],
    ['unknown type', { type: 'xpath' }, "tolerance type 'xpath' is unsupported"],
    ['probe without provider', { type: 'probe', name: 'p' }, 'probe tolerance requires a provider'],
    ['regex without pattern', { type: 'regex' }, 'regex tolerance must have a `pattern` key'],
    ['regex non-string pattern', { type: 'regex', pattern: 5 }, 'tolerance pattern 5 has an invalid type'],
    ['regex invalid pattern', { type: 'regex', pattern: '(' }, "tolerance pattern '(' seems invalid: "],
    [
      'regex non-string target',
      { type: 'regex', pattern: 'x', target: 3 },
      'regex tolerance target must be a string',
    ],
    ['jsonpath without path', { type: 'jsonpath' }, 'jsonpath tolerance must have a `path` key'],
    ['jsonpath empty path', { type: 'jsonpath', path: '' }, 'tolerance JSON path cannot be empty'],
    ['jsonpath blank path', { type: 'jsonpath', path: '  ' }, 'tolerance JSON path cannot be empty'],
    ['jsonpath non-string path', { type: 'jsonpath', path: 3 }, 'tolerance JSON path 3 has an invalid type'],
    ['jsonpath without $', { type: 'jsonpath', path: 'foo.bar' }, "a JSON path starts with '$'"],
    ['jsonpath unbalanced', { type: 'jsonpath', path: '$.a[' }, 'found the end of the path'],
    ['jsonpath stray bracket', { type: 'jsonpath', path: '$.a]' }, "found ']'"],
    ['jsonpath ==', { type: 'jsonpath', path: '$.foo[*][?(@.baz=="hello")]' }, "compares with '=', not '=='"],
    ['jsonpath bad filter', { type: 'jsonpath', path: '$.foo[?(@.baz=)]' }, "found ')'"],
    ['jsonpath slice step 0', { type: 'jsonpath', path: '$.a[::0]' }, 'a slice step of 0'],
    [
      'jsonpath negative count',
      { type: 'jsonpath', path: '$.a', count: -1 },
      'count must be an integer >= 0',
    ],
    ['jsonpath float count', { type: 'jsonpath', path: '$.a', count: 1.5 }, 'count must be an integer >= 0'],
    ['jsonpath string count', { type: 'jsonpath', path: '$.a', count: '1' }, 'count must be an integer >= 0'],
    ['range without range', { type: 'range' }, 'range tolerance must have a `range` key'],
    ['range not a list', { type: 'range', range: 5 }, 'tolerance range must be a sequence'],
    ['range of three', { type: 'range', range: [1, 2, 3] }, 'must be made of two values'],
    ['range of one', { type: 'range', range: [1] }, 'must be made of two values'],
    ['range string lower', { type: 'range', range: ['1', 2] }, 'lower boundary must be a number'],
    ['range string upper', { type: 'range', range: [1, 'x'] }, 'upper boundary must be a number'],
    [
      'range reversed',
      { type: 'range', range: [5, 1] },
      'lower boundary 5 is greater than the upper boundary 1',
    ],
  ];
  it.each(invalid)('refuses %s', (_name, tolerance, message) => {
    const problem = validateTolerance(tolerance, WHERE);
    expect(problem).toContain(message);
    expect(problem?.startsWith(`${WHERE}: `)).toBe(true);
  });

  it('reads a jsonpath as written, before ${name} substitution, as chaoslib does', () => {
    const written = { type: 'jsonpath', path: '$.items[${i}].metadata.name' };
    expect(validateTolerance({ ...written, path: '$.items[0].metadata.name' }, WHERE, { written })).toBe(
      `${WHERE}: tolerance.path '$.items[\${i}].metadata.name' is not a JSONPath chaoslib reads (jsonpath2 0.4.5): ` +
        "expected ',' or ']', found '{' (at character 10) — " +
        'chaoslib reads the path before it substitutes ${name}, so a ${name} goes inside a string in double quotes',
    );
    const inString = { type: 'jsonpath', path: '$.a[*][?(@.b = "${token}")]' };
    const substituted = { ...inString, path: '$.a[*][?(@.b = "s3cr"et")]' };
    const problem = validateTolerance(substituted, WHERE, { written: inString });
    expect(problem).toBe(
      `${WHERE}: tolerance.path '$.a[*][?(@.b = "\${token}")]' is not a JSONPath chaoslib reads (jsonpath2 0.4.5): ` +
        'not once its ${name} are substituted (a value in a string holds no " and no lone \\)',
    );
    expect(
      validateTolerance({ ...inString, path: '$.a[*][?(@.b = "fine")]' }, WHERE, { written: inString }),
    ).toBeUndefined();
  });

  it('hands probe tolerances to validateProbe', () => {
    const probe = { type: 'probe', name: 'p', provider: { type: 'python' } };
    const seen: unknown[] = [];
    const problem = validateTolerance(probe, WHERE, {
      validateProbe: (activity) => {
        seen.push(activity);
        return 'a Python activity must have a module path';
      },
    });
    expect(seen).toEqual([probe]);
    expect(problem).toBe(`${WHERE}: probe tolerance: a Python activity must have a module path`);
    expect(validateTolerance(probe, WHERE, { validateProbe: () => undefined })).toBeUndefined();
  });
});

describe('jsonEqual', () => {
  const cases: [unknown, unknown, boolean][] = [
    [1, 1.0, true],
    [true, 1, false],
    [false, 0, false],
    ['1', 1, false],
    [null, null, true],
    [null, undefined, false],
    [[1, [2]], [1, [2]], true],
    [[1, 2], [2, 1], false],
    [{ a: 1, b: [2] }, { b: [2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: undefined }, { b: undefined }, false],
    [[], {}, false],
  ];
  it.each(cases)('%j vs %j → %s', (a, b, result) => {
    expect(jsonEqual(a, b)).toBe(result);
    expect(jsonEqual(b, a)).toBe(result);
  });
});

const PROCESS = { status: 0, stdout: 'you are number 87\n', stderr: 'warning: level 3\n' };
const HTTP = { status: 302, headers: { 'content-type': 'application/json' }, body: { ok: true, n: 3 } };

describe('withinTolerance', () => {
  // [name, tolerance, value, expected, configuration?]
  const cases: [string, unknown, unknown, boolean, Record<string, unknown>?][] = [
    // bool: strict, no status unwrapping
    ['true vs true', true, true, true],
    ['false vs false', false, false, true],
    ['true vs false', true, false, false],
    ['true vs 1 (upstream: true)', true, 1, false],
    ['false vs 0 (upstream: true)', false, 0, false],
    ['true vs {status: true}', true, { status: true }, false],
    ['false vs null', false, null, false],
    // integer
    ['6 vs 6', 6, 6, true],
    ['6 vs 7', 6, 7, false],
    ['6 vs 6.0', 6, 6.0, true],
    ['3 vs mean 3.0', 3, (1 + 3 + 4 + 4) / 4, true],
    ['0 vs process output', 0, PROCESS, true],
    ['1 vs process output', 1, PROCESS, false],
    ['302 vs http output', 302, HTTP, true],
    ['200 vs http output', 200, HTTP, false],
    ['1 vs true (upstream: true)', 1, true, false],
    ['0 vs false (upstream: true)', 0, false, false],
    ['6 vs "6"', 6, '6', false],
    ['non-integer number (float) → not met', 2.5, 2.5, false],
    // string
    ['"ok" vs "ok"', 'ok', 'ok', true],
    ['"ok" vs "OK"', 'ok', 'OK', false],
    ['"ok" vs {status: "ok"}', 'ok', { status: 'ok' }, false],
    ['"6" vs 3', '6', 3, false],
    ['"6" vs 6 (no coercion)', '6', 6, false],
    ['"" vs ""', '', '', true],
    // list
    ['[200,301,302] vs {status: 302}', [200, 301, 302], HTTP, true],
    ['[5,6] vs {status: 6}', [5, 6], { status: 6 }, true],
    ['[5,7] vs {status: 6} (membership, not range)', [5, 7], { status: 6 }, false],
    ['[1,5] vs {status: 3}', [1, 5], { status: 3 }, false],
    ['[1,5] vs 3 (range)', [1, 5], 3, true],
    ['[1,5] vs 1 (inclusive)', [1, 5], 1, true],
    ['[1,5] vs 5 (inclusive)', [1, 5], 5, true],
    ['[1,5] vs 5.5', [1, 5], 5.5, false],
    ['[1,5] vs 0', [1, 5], 0, false],
    ['[5,1] vs 5 (reversed range)', [5, 1], 5, false],
    ['[1,5,9] vs 4', [1, 5, 9], 4, false],
    ['[1,5,9] vs 5', [1, 5, 9], 5, true],
    ['[] vs anything', [], 1, false],
    ['[1,5] vs "x" (upstream: TypeError)', [1, 5], 'x', false],
    ['[1,5] vs "3"', [1, 5], '3', false],
    ['[0,1] vs true (upstream: true)', [0, 1], true, false],
    ['["a","b"] vs "a" (membership)', ['a', 'b'], 'a', true],
    ['["a","b"] vs "ab" (upstream: true, string range)', ['a', 'b'], 'ab', false],
    ['[[1,2],[3]] vs [3] (deep membership)', [[1, 2], [3]], [3], true],
    ['[{a:1}] vs {a:1}', [{ a: 1 }], { a: 1 }, true],
    ['[1,true] vs true', [1, true], true, true],
    ['[1,2,3] vs true', [1, 2, 3], true, false],
    // regex
    ['regex search', { type: 'regex', pattern: '[0-9]{2}' }, 'you are number 87', true],
    ['regex no match', { type: 'regex', pattern: '[0-9]{2}' }, 'you are number 8', false],
    ['regex unanchored', { type: 'regex', pattern: 'number' }, 'you are number 8', true],
    ['regex target stdout', { type: 'regex', pattern: '87', target: 'stdout' }, PROCESS, true],
    ['regex target stderr', { type: 'regex', pattern: '^warning', target: 'stderr' }, PROCESS, true],
    ['regex target stderr miss', { type: 'regex', pattern: '87', target: 'stderr' }, PROCESS, false],
    ['regex target body (JSON text)', { type: 'regex', pattern: '"ok":true', target: 'body' }, HTTP, true],
    [
      'regex target absent → whole value as JSON',
      { type: 'regex', pattern: '"status":0', target: 'nope' },
      PROCESS,
      true,
    ],
    [
      'regex target on a string (upstream: raises)',
      { type: 'regex', pattern: '8', target: 'stdout' },
      '87',
      false,
    ],
    ['regex on a number (JSON text)', { type: 'regex', pattern: '^87$' }, 87, true],
    ['regex on null', { type: 'regex', pattern: 'null' }, null, true],
    ['regex on undefined', { type: 'regex', pattern: '.' }, undefined, false],
    ['regex substituted', { type: 'regex', pattern: 'hello ${msg}' }, 'hello world', true, { msg: 'world' }],
    [
      'regex substituted miss',
      { type: 'regex', pattern: 'hello ${msg}' },
      'hello you',
      false,
      { msg: 'world' },
    ],
    [
      'regex only valid placeholders replaced',
      { type: 'regex', pattern: '^[0-9] \\$\\{level\\} ${msg} - done$' },
      '1 ${level} hello - done',
      true,
      { msg: 'hello' },
    ],
    ['regex invalid after substitution', { type: 'regex', pattern: '${p}' }, 'x', false, { p: '(' }],
    ['regex pattern substituted to a number', { type: 'regex', pattern: '${p}' }, '3', false, { p: 3 }],
    // range
    ['range int', { type: 'range', range: [10, 800] }, 580, true],
    ['range numeric string', { type: 'range', range: [10, 800] }, '580', true],
    ['range float string', { type: 'range', range: [10, 800.8] }, '580.4', true],
    ['range mixed miss', { type: 'range', range: [10.5, 800] }, '1230', false],
    ['range lower inclusive', { type: 'range', range: [10, 800] }, 10, true],
    ['range upper inclusive', { type: 'range', range: [10, 800] }, '800', true],
    ['range below', { type: 'range', range: [10, 800] }, 9.99, false],
    ['range bad value', { type: 'range', range: [10, 800] }, 'bad', false],
    ['range spaced string', { type: 'range', range: [10, 800] }, ' 20 ', true],
    ['range exponent string', { type: 'range', range: [10, 800] }, '1e2', true],
    ['range null (upstream: TypeError)', { type: 'range', range: [10, 800] }, null, false],
    ['range object (upstream: TypeError)', { type: 'range', range: [0, 800] }, { a: 1 }, false],
    ['range true (upstream: 1)', { type: 'range', range: [0, 800] }, true, false],
    ['range empty string', { type: 'range', range: [0, 800] }, '', false],
    ['range target', { type: 'range', range: [200, 399], target: 'status' }, HTTP, true],
    ['range target body.n absent → the mapping', { type: 'range', range: [0, 9], target: 'x' }, HTTP, false],
    ['range target on a number (upstream: raises)', { type: 'range', range: [0, 9], target: 'x' }, 3, false],
    ['range malformed', { type: 'range', range: [1] }, 1, false],
    // string tolerance substituted and dispatched by the new type
    ['"${expected}" → 3 vs 3', '${expected}', 3, true, { expected: 3 }],
    ['"${expected}" → 3 vs {status: 3}', '${expected}', { status: 3 }, true, { expected: 3 }],
    ['"${expected}" → [1,5] vs 4', '${expected}', 4, true, { expected: [1, 5] }],
    ['"${expected}" → true vs true', '${expected}', true, true, { expected: true }],
    ['"${expected}" → regex', '${expected}', 'abc', true, { expected: { type: 'regex', pattern: 'b' } }],
    ['"${expected}" → float → not met', '${expected}', 2.5, false, { expected: 2.5 }],
    ['"${expected}" → null → not met', '${expected}', null, false, { expected: null }],
    ['"v${n}" → "v3"', 'v${n}', 'v3', true, { n: 3 }],
    ['unknown placeholder stays', '${missing}', '${missing}', true],
    // not tolerances
    ['null', null, null, false],
    ['unknown mapping type', { type: 'xpath' }, 1, false],
    ['probe without runProbe', { type: 'probe', provider: {} }, 1, false],
  ];
  it.each(cases)('%s', async (_name, tolerance, value, expected, configuration) => {
    await expect(withinTolerance(tolerance, value, { configuration: configuration ?? {} })).resolves.toBe(
      expected,
    );
  });

  it('reads secrets for substitution', async () => {
    const ctx = { configuration: {}, secrets: { grp: { token: 'abc' } } };
    await expect(withinTolerance({ type: 'regex', pattern: '^${token}$' }, 'abc', ctx)).resolves.toBe(true);
    await expect(withinTolerance('${token}', 'abc', ctx)).resolves.toBe(true);
  });

  describe("jsonpath (chaoslib's: jsonpath2, D161)", () => {
    const TWO = { foo: [{ baz: 1 }, { baz: 2 }] };
    // [name, tolerance, value, expected, configuration?]
    const jsonpath: [string, Record<string, unknown>, unknown, boolean, Record<string, unknown>?][] = [
      // chaostoolkit-lib's own examples, as written there: a filter tests the node it follows.
      ['$.foo.*[?(@.baz)]', { path: '$.foo.*[?(@.baz)]' }, TWO, true],
      ['$.notsofoo.*[?(@.baz)].baz', { path: '$.notsofoo.*[?(@.baz)].baz' }, TWO, false],
      [
        '$.foo[?(@.baz)].baz expect "hello"',
        { path: '$.foo[?(@.baz)].baz', expect: 'hello' },
        { foo: { baz: 'hello' } },
        true,
      ],
      [
        'expect [["hello","bonjour"]] (a list expect is the match list)',
        { path: '$.foo[?(@.baz)].baz', expect: [['hello', 'bonjour']] },
        { foo: { baz: ['hello', 'bonjour'] } },
        true,
      ],
      [
        'expect [[["hello"],["bonjour"]]]',
        { path: '$.foo[?(@.baz)].baz', expect: [[['hello'], ['bonjour']]] },
        { foo: { baz: [['hello'], ['bonjour']] } },
        true,
      ],
      [
        'expect [] with no match',
        { path: '$.foo[?(@.baz)].baz', expect: [] },
        { foo: { jon: 'boom' } },
        true,
      ],
      [
        '$.foo[?(@.baz="hello")] count 1',
        { path: '$.foo[?(@.baz="hello")]', count: 1 },
        { foo: { baz: 'hello' } },
        true,
      ],
      ['… with "bonjour"', { path: '$.foo[?(@.baz="hello")]', count: 1 }, { foo: { baz: 'bonjour' } }, false],
      [
        '$.foo.*[?(@.baz)].baz expect list',
        { path: '$.foo.*[?(@.baz)].baz', expect: ['hello', 'bonjour'] },
        { foo: [{ baz: 'hello' }, { baz: 'bonjour' }] },
        true,
      ],
      ['$.foo.*[?(@.baz=2)] count 1', { path: '$.foo.*[?(@.baz=2)]', count: 1 }, TWO, true],
      ['$.foo.*[?(@.baz)] count 2', { path: '$.foo.*[?(@.baz)]', count: 2 }, TWO, true],
      [
        '$.foo.*[?(@.baz=4)] count 2',
        { path: '$.foo.*[?(@.baz=4)]', count: 2 },
        { foo: [{ baz: 4 }, { baz: 4 }] },
        true,
      ],
      ['$.foo[*].baz on a JSON string', { path: '$.foo[*].baz' }, JSON.stringify(TWO), true],
      [
        '$.foo[*].baz on JSON bytes',
        { path: '$.foo[*].baz' },
        new TextEncoder().encode(JSON.stringify(TWO)),
        true,
      ],
      [
        'path substituted: msg=hello',
        { path: '$.foo[?(@.baz="${msg}")]', count: 1 },
        { foo: { baz: 'hello' } },
        true,
        { msg: 'hello' },
      ],
      [
        'path substituted: msg=bonjour',
        { path: '$.foo[?(@.baz="${msg}")]', count: 1 },
        { foo: { baz: 'hello' } },
        false,
        { msg: 'bonjour' },
      ],
      [
        'expect substituted',
        { path: '$.RecordData[0]', expect: ['my-other-cname.${env}.mysite.com'] },
        { RecordData: ['my-other-cname.dev.mysite.com'] },
        true,
        { env: 'dev' },
      ],
      // Standard JSONPath's reading, which jsonpath2 does not share: the filter tests the list.
      ['a filter right after a list tests the list', { path: '$.foo[?(@.baz)]' }, TWO, false],
      ['… [*] before it tests the items', { path: '$.foo[*][?(@.baz)]', count: 2 }, TWO, true],
      ['== is not jsonpath2: not met', { path: '$.foo[*][?(@.baz==2)]' }, TWO, false],
      // Python's equality, in the filter and in expect and count.
      ['= 1 finds true', { path: '$.a[*][?(@ = 1)]', count: 2 }, { a: [1, true, '1'] }, true],
      ['expect 1 is a found true', { path: '$.ok', expect: 1 }, { ok: true }, true],
      ['expect "2" is not a found 2', { path: '$.foo[1].baz', expect: '2' }, TWO, false],
      ['count true is 1', { path: '$.foo[0]', count: true }, TWO, true],
      // more
      ['no match', { path: '$.nope' }, TWO, false],
      ['count 0 with no match', { path: '$.nope', count: 0 }, TWO, true],
      ['count mismatch', { path: '$.foo[*]', count: 3 }, TWO, false],
      ['expect scalar', { path: '$.foo[1].baz', expect: 2 }, TWO, true],
      ['expect overrides count', { path: '$.foo[*].baz', count: 5, expect: [1, 2] }, TWO, true],
      ['expect null', { path: '$.a', expect: null }, { a: null }, true],
      ['target body', { path: '$.ok', expect: true, target: 'body' }, HTTP, true],
      [
        'target stdout JSON',
        { path: '$.items[*]', count: 2, target: 'stdout' },
        { stdout: '{"items":[1,2]}' },
        true,
      ],
      ['target on a string (upstream: raises)', { path: '$', target: 'body' }, 'x', false],
      ['non-JSON string document', { path: '$' }, 'plain text', true],
      ['path substituted to a non-string', { path: '${p}' }, TWO, false, { p: 3 }],
      ['a path jsonpath2 refuses, at run time', { path: '$.foo[?(@.baz==)]' }, TWO, false],
      ['a slice step of 0, at run time', { path: '$.foo[::0]' }, TWO, false],
      ['undefined value', { path: '$.a' }, undefined, false],
    ];
    it.each(jsonpath)('%s', async (_name, tolerance, value, expected, configuration) => {
      const result = withinTolerance({ type: 'jsonpath', ...tolerance }, value, {
        configuration: configuration ?? {},
      });
      await expect(result).resolves.toBe(expected);
    });

    it('says why when a filter tested a list whose items pass it', async () => {
      const said: string[] = [];
      const explain = (why: string) => said.push(why);
      const nodes = { items: [{ metadata: { name: 'kwok-node-0' } }, { metadata: { name: 'kwok-node-1' } }] };
      const onList = { type: 'jsonpath', path: '$.items[?(@.metadata.name = "kwok-node-0")]' };
      await expect(withinTolerance(onList, nodes, { explain })).resolves.toBe(false);
      expect(said).toEqual([
        'the filter [?(@.metadata.name = "kwok-node-0")] tested a list as a whole, as jsonpath2 does, and 1 of its items pass it: put [*] before the filter to test the items',
      ]);
      // Nothing to say when no item would pass either, or when the tolerance is met.
      said.length = 0;
      const none = { ...onList, path: '$.items[?(@.metadata.name = "kwok-node-9")]' };
      await expect(withinTolerance(none, nodes, { explain })).resolves.toBe(false);
      const met = { ...onList, path: '$.items[*][?(@.metadata.name = "kwok-node-0")]' };
      await expect(withinTolerance(met, nodes, { explain })).resolves.toBe(true);
      expect(said).toEqual([]);
    });
  });

  describe('probe tolerances', () => {
    const probe = {
      type: 'probe',
      name: 'in-range',
      provider: { type: 'process', path: 'true', arguments: {} },
    };
    const cases: [string, (p: Record<string, unknown>, v: unknown) => Promise<boolean>, boolean][] = [
      ['true', async () => true, true],
      ['false', async () => false, false],
      ['throws (ActivityFailed)', async () => Promise.reject(new Error('out of range')), false],
      ['truthy non-boolean', async () => 'yes' as unknown as boolean, true],
    ];
    it.each(cases)('runProbe → %s', async (_name, runProbe, expected) => {
      await expect(withinTolerance(probe, 7, { runProbe })).resolves.toBe(expected);
    });

    it('receives the probe and the value, untouched', async () => {
      const seen: unknown[] = [];
      const snapshot = structuredClone(probe);
      await withinTolerance(
        probe,
        { status: 3 },
        {
          runProbe: async (p, v) => {
            seen.push(p, v);
            return true;
          },
        },
      );
      expect(seen).toEqual([probe, { status: 3 }]);
      expect(probe).toEqual(snapshot);
    });
  });
});
