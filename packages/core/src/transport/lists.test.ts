import { describe, expect, it } from 'vitest';
import { memberLength } from './lists.js';

/** The count after giving `text` in chunks of `size` characters. */
const countIn = (text: string, size: number) => {
  const counter = memberLength('rows');
  let n = 0;
  for (let i = 0; i < text.length; i += size) n = counter(text.slice(i, i + size));
  return n;
};

describe('memberLength: the rows of a table, counted as its answer arrives', () => {
  const rows = [
    { cells: ['web-0', '1/1', 'Running', 0], object: null },
    // Text that looks like structure, inside strings: braces, brackets, quotes, escapes, a key.
    { cells: ['a{b}[c]', 'say \\"hi\\" \\\\', '"rows": [{}]', '\\u007b'], object: null },
    { cells: [], object: { metadata: { name: 'x', rows: [{}, {}] } } },
  ];
  const table = {
    kind: 'Table',
    columnDefinitions: [{ name: 'rows', description: 'not the rows: "rows": [{}, {}]' }],
    metadata: { resourceVersion: '7' },
    rows,
  };

  it('counts every row, compact or indented, however the chunks cut the text', () => {
    for (const text of [JSON.stringify(table), JSON.stringify(table, null, 2)])
      for (const size of [1, 2, 3, 7, 64, text.length]) expect(countIn(text, size)).toBe(3);
  });

  it('counts nothing in a table without rows, or with another member named like them', () => {
    expect(countIn(JSON.stringify({ kind: 'Table', rows: [] }), 5)).toBe(0);
    expect(countIn(JSON.stringify({ kind: 'Table', other: { rows: [{}, {}] } }), 5)).toBe(0);
    expect(countIn(JSON.stringify({ kind: 'Table' }), 5)).toBe(0);
  });

  it('agrees with JSON.parse on a table of 10,000 rows', () => {
    const big = JSON.stringify({
      ...table,
      rows: Array.from({ length: 10_000 }, (_, i) => ({ cells: [`pod-${i}`, '}{]["'], object: null })),
    });
    expect(countIn(big, 16_384)).toBe((JSON.parse(big) as { rows: unknown[] }).rows.length);
  });
});
