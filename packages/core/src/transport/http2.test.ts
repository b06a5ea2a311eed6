// The protocol a connection speaks is the server's choice (ALPN): HTTP/2 when offered, one TLS
// connection for every request; HTTP/1.1 otherwise, a pool of at most MAX_CONNECTIONS. Loopback
// TLS servers with a self-signed certificate made by openssl (which the local provider needs
// anyway), counting the connections and the requests out at once on their side.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Connection, MAX_CONNECTIONS } from './connection.js';

const dir = mkdtempSync(join(tmpdir(), 'chaoskit-http2-'));
execFileSync(
  'openssl',
  [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
    ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
  ],
  { stdio: 'ignore' },
);
const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Answers each request after `delayMs`, counting connections and the most requests out at once. */
async function counting(server: Server & { on: Server['on'] }, delayMs: number) {
  const seen = { connections: 0, out: 0, most: 0, protocols: new Set<string>() };
  server.on('secureConnection', () => seen.connections++);
  server.on('request', (req: { httpVersion: string }, res: { end: (body: string) => void }) => {
    seen.protocols.add(req.httpVersion);
    seen.most = Math.max(seen.most, ++seen.out);
    setTimeout(() => {
      seen.out--;
      res.end('{"kind":"Namespace"}');
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { connection: connectionTo(server), seen };
}

/** core's connection to a listening loopback server, trusting its certificate. */
const connectionTo = (server: Server) =>
  new Connection(
    {
      server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      ca: { pem: tls.cert.toString() },
      insecure: false,
      auth: { kind: 'none' },
    },
    'CLUSTER_HOST from the secrets',
  );

const fifty = (connection: Connection) =>
  Promise.all(
    Array.from({ length: 50 }, () => connection.send({ method: 'GET', path: '/api/v1/namespaces/x' })),
  );

describe('the protocol of a connection', () => {
  it('speaks HTTP/2 to a server that offers it: 50 requests at once on one connection, more out than HTTP/1.1 allows', async () => {
    const server = createSecureServer({ ...tls, allowHTTP1: true });
    const { connection, seen } = await counting(server, 50);
    const answers = await fifty(connection);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers[0]?.body).toBe('{"kind":"Namespace"}');
    expect(seen).toMatchObject({ connections: 1, protocols: new Set(['2.0']) });
    // Doubling from 2 while every answer is a success: 2, 4, 8, 16, then the 20 left.
    expect(seen.most).toBeGreaterThan(MAX_CONNECTIONS);
    connection.close();
    await new Promise((r) => server.close(r));
  });

  it('speaks HTTP/1.1 to a server that does not offer HTTP/2, over at most its pool of connections', async () => {
    const server = createHttpsServer(tls);
    const { connection, seen } = await counting(server, 50);
    const answers = await fifty(connection);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(seen.protocols).toEqual(new Set(['1.1']));
    expect(seen.connections).toBeGreaterThan(1);
    expect(seen.connections).toBeLessThanOrEqual(MAX_CONNECTIONS + 1);
    expect(seen.most).toBeLessThanOrEqual(MAX_CONNECTIONS);
    expect(connection.throttles.read.max).toBe(MAX_CONNECTIONS);
    connection.close();
    await new Promise((r) => server.close(r));
  });

  it('retries an answer cut off with its connection, on a new connection, and never returns it truncated', async () => {
    const server = createSecureServer(tls);
    let sessions = 0;
    server.on('session', () => sessions++);
    let first = true;
    server.on('stream', (stream) => {
      stream.on('error', () => undefined);
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      if (!first) return void stream.end('{"kind":"Namespace","complete":true}');
      first = false;
      // Half an answer, then the connection gone (an apiserver killed mid-answer).
      stream.write('{"kind":"Namespace","comp', () => stream.session?.socket.destroy());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const connection = connectionTo(server);
    const res = await connection.send({ method: 'GET', path: '/api/v1/namespaces/x' });
    expect(res).toMatchObject({ status: 200, attempts: 2, body: '{"kind":"Namespace","complete":true}' });
    expect(sessions).toBe(2);
    connection.close();
    await new Promise((r) => server.close(r));
  });
});
