import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isChaosError } from '../errors/errors.js';
import { Connection, FIRST_CONTACT_MS } from './connection.js';
import { onConnectionNotice } from './notices.js';
import { CORE_WRITE } from './request.js';
import { isRetryable } from './retry.js';
import { Transport } from './transport.js';

// A loopback HTTP server that answers each request with the next planned response, so the
// retries of core's one connection layer can be counted on the server's side.
type Planned = { status: number; headers?: Record<string, string>; body?: string } | 'reset';
let server: Server | undefined;
async function serve(plan: Planned[]): Promise<{ connection: Connection; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    // Ready whenever asked: a dropped connection makes the client ask before it retries.
    if (req.url === '/readyz') {
      res.end('ok');
      return;
    }
    const next = plan.shift() ?? { status: 200, body: '{}' };
    if (next === 'reset') {
      req.socket.destroy();
      return;
    }
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(next.body ?? JSON.stringify({ kind: 'Status', code: next.status, message: `m${next.status}` }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  // Plain http is allowed with TLS verification off, as CLUSTER_VERIFY_SSL=false allows it.
  const connection = new Connection(
    { server: `http://127.0.0.1:${port}`, insecure: true, auth: { kind: 'none' } },
    'CLUSTER_HOST from the secrets',
  );
  return { connection, seen };
}
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

describe('the connection layer', () => {
  it('retries a dropped connection, a 503 and a 429 (after its Retry-After), then returns the answer', async () => {
    const { connection, seen } = await serve([
      'reset',
      { status: 503 },
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 200, body: '{"ok":true}' },
    ]);
    const started = Date.now();
    const res = await connection.send({ method: 'GET', path: '/api/v1/pods' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"ok":true}');
    expect(res.attempts).toBe(4);
    expect(seen.filter((r) => r === 'GET /api/v1/pods')).toHaveLength(4);
    // After the dropped connection, it asked whether the server is ready, once.
    expect(seen.filter((r) => r === 'GET /readyz')).toHaveLength(1);
    // The Retry-After second was honoured (logged, not asserted as a speed).
    console.log(`4 attempts in ${Date.now() - started} ms`);
  });

  it('says a retried write may have been applied (a reset after sending), but not after a 429', async () => {
    const a = await serve(['reset', { status: 409 }]);
    const ambiguous = await a.connection.send({
      method: 'POST',
      path: '/api/v1/namespaces/x/pods',
      body: {},
      [CORE_WRITE]: true,
    });
    expect(ambiguous).toMatchObject({ status: 409, attempts: 2, ambiguous: true });
    await new Promise<void>((r) => server!.close(() => r()));
    const b = await serve([{ status: 429 }, { status: 201 }]);
    const clear = await b.connection.send({
      method: 'POST',
      path: '/api/v1/namespaces/x/pods',
      body: {},
      [CORE_WRITE]: true,
    });
    expect(clear).toMatchObject({ status: 201, attempts: 2, ambiguous: false });
  });

  it("refuses, unsent, a change that does not come through core's write path (D171)", async () => {
    const { connection, seen } = await serve([]);
    const path = '/api/v1/namespaces/x/pods/p';
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const refused =
        /refused before it was sent: a change to a cluster goes through @chaoskit\/core's client/;
      await expect(connection.send({ method, path })).rejects.toThrow(refused);
      await expect(connection.open({ method, path })).rejects.toThrow(refused);
      await expect(new Transport(connection).request({ method, path })).rejects.toThrow(refused);
    }
    expect(seen).toEqual([]);
    await connection.send({ method: 'GET', path });
    expect(seen).toEqual([`GET ${path}`]);
    // The mark is in no export of the package: outside core, nothing can set it.
    for (const surface of [await import('../index.js'), await import('../runner.js')])
      expect(Object.values(surface)).not.toContain(CORE_WRITE);
  });

  it('after the server was down, waits until it says it is ready before sending again', async () => {
    // A server that refused connections (a restart), then comes back not ready yet: a restarted
    // apiserver answers before its RBAC informers have synced.
    const { connection, seen } = await serve([]);
    const { port } = server!.address() as AddressInfo;
    await new Promise<void>((r) => server!.close(() => r()));
    const sent = connection.send({ method: 'GET', path: '/api/v1/pods' });
    await new Promise((r) => setTimeout(r, 300));
    const plan: Planned[] = [
      { status: 500, body: 'not ready' },
      { status: 200, body: 'ok' },
    ];
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const next =
        req.url === '/readyz'
          ? (plan.shift() as { status: number; body: string })
          : { status: 200, body: '{}' };
      res.writeHead(next.status).end(next.body);
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    expect((await sent).status).toBe(200);
    expect(seen).toEqual(['GET /readyz', 'GET /readyz', 'GET /api/v1/pods']);
  });

  it('asks a refusal once more when the server says it is ready: a restarted apiserver refuses before its RBAC has synced', async () => {
    // No failed connection announced this restart: the old server closed its idle connections.
    // /readyz is authorized through RBAC too: refused, it means not yet.
    const readyz = [403, 500, 200, 200, 401];
    const plan = [403, 200, 403, 403, 403, 401, 401];
    const seen: string[] = [];
    server = createServer((req, res) => {
      const status = req.url === '/readyz' ? (readyz.shift() ?? 200) : plan.shift()!;
      seen.push(`${req.url} ${status}`);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const connection = new Connection(
      { server: `http://127.0.0.1:${port}`, insecure: true, auth: { kind: 'none' } },
      'CLUSTER_HOST from the secrets',
    );
    expect(await connection.send({ method: 'GET', path: '/a' })).toMatchObject({ status: 200, attempts: 2 });
    expect(seen).toEqual(['/a 403', '/readyz 403', '/readyz 500', '/readyz 200', '/a 200']);
    // A refusal from a ready server stands after one more question; none without a budget.
    expect(await connection.send({ method: 'GET', path: '/b' })).toMatchObject({ status: 403, attempts: 2 });
    expect(await connection.send({ method: 'GET', path: '/c', retryBudgetMs: 0 })).toMatchObject({
      status: 403,
      attempts: 1,
    });
    expect(seen.slice(5)).toEqual(['/b 403', '/readyz 200', '/b 403', '/c 403']);
    // Credentials it does not take: /readyz says 401 too, which ends the wait at once.
    expect(await connection.send({ method: 'GET', path: '/d' })).toMatchObject({ status: 401, attempts: 2 });
    expect(seen.slice(9)).toEqual(['/d 401', '/readyz 401', '/d 401']);
  });

  it('does not retry a 404 or a 409, and gives up when the budget is spent', async () => {
    const { connection, seen } = await serve([
      { status: 404 },
      { status: 503 },
      { status: 503 },
      { status: 503 },
    ]);
    expect((await connection.send({ method: 'GET', path: '/a' })).status).toBe(404);
    expect(seen).toHaveLength(1);
    const res = await connection.send({ method: 'GET', path: '/b', retryBudgetMs: 0 });
    expect(res).toMatchObject({ status: 503, attempts: 1 });
  });

  it('names the address, where it came from and the cause when the cluster cannot be reached', async () => {
    const { connection } = await serve([]);
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const err = await connection
      .send({ method: 'GET', path: '/a', retryBudgetMs: 0 })
      .catch((e: unknown) => e);
    expect(isChaosError(err, 'Unavailable')).toBe(true);
    expect((err as Error).message).toMatch(
      /^cannot reach the cluster at http:\/\/127\.0\.0\.1:\d+, given by CLUSTER_HOST from the secrets: connection refused: nothing listens at that address \(is the apiserver running\?\) \(ECONNREFUSED\); tried 1 times in [\d.]+ s: it never answered/,
    );
  });

  it('gives up on a server that never answered after a few tries, not after the minute a restart is given', async () => {
    const { connection } = await serve([]);
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const heard: string[] = [];
    const stop = onConnectionNotice((line) => heard.push(line));
    try {
      // The default budget (a minute): a refused connection to a server that never answered
      // this process is not a restart, and is not waited for.
      const err = await connection.send({ method: 'GET', path: '/a' }).catch((e: unknown) => e);
      const tried = /tried (\d+) times in ([\d.]+) s: it never answered, so it is not waited for/.exec(
        (err as Error).message,
      );
      expect(tried, (err as Error).message).not.toBeNull();
      expect(Number(tried![2])).toBeLessThanOrEqual(FIRST_CONTACT_MS / 1000 + 1);
      // Nothing was said of a restart: there was none.
      expect(heard).toEqual([]);
    } finally {
      stop();
    }
  });

  it('retries a server that answered before and stopped (a restart), saying so once', async () => {
    const { connection } = await serve([]);
    expect((await connection.send({ method: 'GET', path: '/a' })).status).toBe(200);
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    connection.close();
    const heard: string[] = [];
    const stop = onConnectionNotice((line) => heard.push(line));
    try {
      const budget = FIRST_CONTACT_MS * 2;
      const err = await connection
        .send({ method: 'GET', path: '/b', retryBudgetMs: budget })
        .catch((e: unknown) => e);
      const tried = /tried (\d+) times in ([\d.]+) s, as long as a restart is given/.exec(
        (err as Error).message,
      );
      expect(tried, (err as Error).message).not.toBeNull();
      expect(Number(tried![2])).toBeGreaterThan(FIRST_CONTACT_MS / 1000);
      expect(heard).toEqual([
        expect.stringMatching(
          /^the cluster at http:\/\/127\.0\.0\.1:\d+ stopped answering \(ECONNREFUSED\); it answered before and may be restarting/,
        ),
      ]);
    } finally {
      stop();
    }
  });
});

const status = (code: number, reason = '') =>
  Object.assign(new Error(`HTTP ${code}`), {
    code,
    body: JSON.stringify({ kind: 'Status', reason, message: `m${code}` }),
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
