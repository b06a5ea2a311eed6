import { describe, expect, it } from 'vitest';
import { isRetryable, listAll, withReadRetry } from './api.js';
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

describe('withReadRetry', () => {
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

  it('retries a dropped connection and a 429, then returns the value', async () => {
    const failures = [reset(), status(429, 'TooManyRequests')];
    let calls = 0;
    const value = await withReadRetry(
      async () => {
        calls++;
        const next = failures.shift();
        if (next) throw next;
        return 'ok';
      },
      { baseDelayMs: 1 },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
  });

  it('does not retry a 404 and turns it into a NotFound ApiError naming the request', async () => {
    let calls = 0;
    const err = await withReadRetry(
      async () => {
        calls++;
        throw status(404, 'NotFound');
      },
      { baseDelayMs: 1, context: { verb: 'get', resource: 'pods', name: 'web-1', namespace: 'shop' } },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(isApiError(err, 'NotFound')).toBe(true);
    expect((err as Error).message).toBe("get pods 'web-1' in namespace 'shop': NotFound (404): m404");
  });

  it('gives up after the attempts allowed', async () => {
    let calls = 0;
    const err = await withReadRetry(
      async () => {
        calls++;
        throw status(503, 'ServiceUnavailable');
      },
      { baseDelayMs: 1, attempts: 3 },
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(isApiError(err, 'Unavailable')).toBe(true);
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
