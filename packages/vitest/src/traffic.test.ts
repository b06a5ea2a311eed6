// Error rates of real requests: an HTTP server on this machine that answers every third request
// with 503, and one whose connection is refused.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorRateOf, sendTraffic } from './traffic.js';

let url = '';
let served = 0;
const server = createServer((_req, res) => {
  res.statusCode = served++ % 3 === 2 ? 503 : 200;
  res.end();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sendTraffic', () => {
  it('counts answers that are not ok as failures, by status', async () => {
    const sample = await sendTraffic(() => fetch(url), { requests: 90, concurrency: 5 });
    expect(sample).toEqual({ requests: 90, failures: 30, errorRate: 30 / 90, outcomes: { ok: 60, 503: 30 } });
  });

  it('counts errors and `false` as failures, by message', async () => {
    const sample = await sendTraffic(
      async (i) => {
        if (i % 2) throw new Error('connection refused');
        return i % 4 !== 0;
      },
      { requests: 8 },
    );
    expect(sample).toEqual({
      requests: 8,
      failures: 6,
      errorRate: 0.75,
      outcomes: { ok: 2, false: 2, 'connection refused': 4 },
    });
  });
});

describe('errorRateOf', () => {
  it('reads a mesh batch: every gRPC status but OK is a failure', () => {
    expect(errorRateOf({ codes: { OK: 3, Unavailable: 1 } })).toEqual({
      requests: 4,
      failures: 1,
      errorRate: 0.25,
      outcomes: { ok: 3, Unavailable: 1 },
    });
  });
});
