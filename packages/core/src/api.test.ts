import { describe, expect, it } from 'vitest';
import { listAll } from './api.js';
import { isRetryable } from './connection.js';
import { isApiError } from './errors.js';

const status = (code: number, reason = '') =>
  Object.assign(new Error(`HTTP ${code}`), {
    code,
    body: JSON.stringify({ kind: 'Status', reason, message: `m${code}` }),
  });
const reset = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('socket'), { code: 'ECONNRESET' }),
  });

describe('isRetryable', () => {
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [504, true],
    [400, false],
    [403, false],
    [404, false],
    [409, false],
  ])('treats HTTP %i as retryable: %s', (code, expected) => {
    expect(isRetryable(status(code))).toBe(expected);
  });
});

describe('listAll', () => {
  it('follows continue tokens until the last page', async () => {
    const pages: Record<string, { items: number[]; metadata: { _continue?: string } }> = {
      '': { items: [1, 2], metadata: { _continue: 'a' } },
      a: { items: [3, 4], metadata: { _continue: 'b' } },
      b: { items: [5], metadata: {} },
    };
    const seen: Array<string | undefined> = [];
    const items = await listAll(
      async ({ _continue, limit }) => {
        expect(limit).toBe(2);
        seen.push(_continue);
        return pages[_continue ?? '']!;
      },
      { limit: 2 },
    );
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual([undefined, 'a', 'b']);
  });
});
