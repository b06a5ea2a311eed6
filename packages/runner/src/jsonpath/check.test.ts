// What validation says of a path jsonpath2 refuses: the problem, where, and the path to write
// instead. That chaoslib refuses the same paths is checked against chaoslib itself in
// packages/conformance/src/differential/jsonpath.test.ts.
import { describe, expect, it } from 'vitest';
import { jsonPathProblem } from './check.js';
import { parseJsonPath } from './parse.js';

describe('jsonPathProblem', () => {
  // [path, what is said, the path to write instead (parsed by jsonpath2's grammar)]
  const fixed: [string, string, string][] = [
    // The path, in the dialect chaoskit took before (D65).
    [
      '$.items[*][?(@.metadata.name == "kwok-node-0")].metadata.name',
      "jsonpath2 compares with '=', not '==' (at character 31)",
      '$.items[*][?(@.metadata.name = "kwok-node-0")].metadata.name',
    ],
    ['$.a[*][?(@.b === 1)]', "compares with '=', not '==='", '$.a[*][?(@.b = 1)]'],
    ['$.a[*][?(@.b !== 1)]', "compares with '!=', not '!=='", '$.a[*][?(@.b != 1)]'],
    ['$.a[*][?(@.b && @.c)]', "writes 'and', not '&&'", '$.a[*][?(@.b and @.c)]'],
    ['$.a[*][?(@.b||@.c)]', "writes 'or', not '||'", '$.a[*][?(@.b or @.c)]'],
    ['$.a[*][?(!@.b)]', "writes 'not', not '!'", '$.a[*][?(not @.b)]'],
    ["$['a']", 'strings are in double quotes', '$["a"]'],
    ["$.a[*][?(@.b == 'x' && @.c)]", 'strings are in double quotes', '$.a[*][?(@.b = "x" and @.c)]'],
    ['$.items.kwok-node-0', "'kwok-node-0' is written in brackets", '$.items["kwok-node-0"]'],
    ['$.items.node-0', "'node-0' is written in brackets", '$.items["node-0"]'],
    ['$..kwok-node', "'kwok-node' is written in brackets", '$..["kwok-node"]'],
    ['$.名前', "'名前' is written in brackets", '$["名前"]'],
    ['$.true', "'true' is a jsonpath2 keyword", '$["true"]'],
    ['$.a[null]', "'null' is a jsonpath2 keyword", '$.a["null"]'],
    ['$.a[b]', 'a name in brackets is in double quotes', '$.a["b"]'],
    ['$.a.0', 'an index is written in brackets: [0]', '$.a[0]'],
    ['@.a', "a JSON path starts with '$'", '$.a'],
    ['.a', "a JSON path starts with '$'", '$.a'],
    ['a.b', "a JSON path starts with '$'", '$.a.b'],
  ];
  it.each(fixed)('%s: %s', (path, says, instead) => {
    const problem = jsonPathProblem(path);
    expect(problem).toContain(says);
    expect(problem).toContain(`write instead: ${instead}`);
    expect(() => parseJsonPath(instead)).not.toThrow();
  });

  it('adds, for a filter right after a name, how to test the items of a list', () => {
    expect(jsonPathProblem('$.items[?(@.metadata.name == "kwok-node-0")]')).toBe(
      "jsonpath2 compares with '=', not '==' (at character 28); write instead: " +
        '$.items[?(@.metadata.name = "kwok-node-0")] (a jsonpath2 filter tests the node it follows: ' +
        'if $.items is a list, its items are tested by $.items[*][?(@.metadata.name = "kwok-node-0")])',
    );
  });

  const unfixed: [string, string][] = [
    [
      '$..book[(@.length-1)]',
      'jsonpath2 has no script expressions [( … )]; the last item is [-1] (at character 9)',
    ],
    ['$.a[1.5]', 'an index or a slice bound is a whole number, not 1.5'],
    ['$.a[?@.b]', "expected '(': a filter is written [?( … )], found '@'"],
    [
      '$.a.foo()',
      "jsonpath2 has no function 'foo' (it has charAt, entries, keys, length, substring, values)",
    ],
    ['$.a[?(@.b =~ /x/)]', "jsonpath2 has no '~' here"],
    ['$["a\\x"]', "'\\x' is not an escape jsonpath2 takes"],
    ['$["a', 'a string is not closed'],
    ['$.a[', 'found the end of the path'],
    ['$.a[::0]', 'a slice step of 0 selects nothing: chaoslib fails there'],
  ];
  it.each(unfixed)('%s: %s', (path, says) => {
    const problem = jsonPathProblem(path);
    expect(problem).toContain(says);
    expect(problem).not.toContain('write instead');
  });

  it.each(['$', ' $ . a [ 0 ] ', '$..*', '$.a[*][?(@.b = 1 or not @.c)].d.length()', '$["a\\"b"]', '$.nots'])(
    'takes %s',
    (path) => {
      expect(jsonPathProblem(path)).toBeUndefined();
    },
  );
});
