// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject under test, not template literals.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isChaosError } from '@chaoskit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpProvider, runHttp, validateHttpProvider } from './http.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Echoes the request as JSON; a few paths answer differently. */
async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const seen: Seen = {
    method: req.method ?? '',
    url: req.url ?? '',
    headers: req.headers,
    body: Buffer.concat(chunks).toString(),
  };
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  switch (path) {
    case '/text':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text');
      return;
    case '/json-charset':
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
      return;
    case '/bad-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
      return;
    case '/no-content':
      res.writeHead(204).end();
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    case '/cookies':
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(200, { 'x-custom': 'yes' }).end('');
      return;
    case '/redirect':
      res.writeHead(302, { location: '/text' }).end();
      return;
    case '/slow':
      setTimeout(() => res.writeHead(200).end('late'), 2000).unref();
      return;
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
      setTimeout(() => res.end('end'), 2000).unref();
      return;
    default:
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
  }
}

let server: Server;
let base: string;
let closedPort: number;

beforeAll(async () => {
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nobody listens on.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const configuration = { host: '127.0.0.1', who: 'world', n: 8, seconds: 0.3 };
const secrets = { api: { token: 'tok-123456' } };

const echo = async (
  provider: Omit<HttpProvider, 'url'> & { url?: string },
): Promise<{ status: number; seen: Seen }> => {
  const result = await runHttp({ url: `${base}/echo`, ...provider } as HttpProvider, {
    configuration,
    secrets,
  });
  return { status: result.status, seen: result.body as Seen };
};

describe('runHttp requests', () => {
  // [name, provider, what the server saw]
  const cases: [
    string,
    Omit<HttpProvider, 'url'> & { url?: string },
    Partial<Seen> & { contentType?: string },
  ][] = [
    ['GET by default', {}, { method: 'GET', url: '/echo', body: '' }],
    ['method upper-cased', { method: 'delete' }, { method: 'DELETE' }],
    [
      'GET arguments as the query string',
      { arguments: { a: 1, b: 'x y', c: null, d: [1, 2], e: true } },
      { url: '/echo?a=1&b=x+y&d=1&d=2&e=true' },
    ],
    [
      'GET arguments appended to an existing query',
      { url: '/echo?z=0', arguments: { a: 1 } },
      { url: '/echo?z=0&a=1' },
    ],
    ['GET string arguments', { arguments: 'a=1&b=2' }, { url: '/echo?a=1&b=2' }],
    ['GET with empty mapping arguments', { arguments: {} }, { url: '/echo' }],
    [
      'POST form-encoded by default',
      { method: 'POST', arguments: { a: 1, b: 'x y' } },
      { body: 'a=1&b=x+y', contentType: 'application/x-www-form-urlencoded;charset=UTF-8' },
    ],
    [
      'POST JSON with Content-Type application/json',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, arguments: { a: [1, { b: null }] } },
      { body: '{"a":[1,{"b":null}]}', contentType: 'application/json' },
    ],
    [
      'JSON Content-Type with charset, any case',
      { method: 'PUT', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, arguments: [1, 2] },
      { body: '[1,2]' },
    ],
    [
      'POST string body',
      { method: 'POST', headers: { 'Content-Type': 'text/plain' }, arguments: 'raw body' },
      { body: 'raw body', contentType: 'text/plain' },
    ],
    ['POST without arguments', { method: 'POST' }, { body: '' }],
    ['url substituted', { url: 'http://${host}:PORT/echo/${who}' }, { url: '/echo/world' }],
    ['arguments substituted', { arguments: { q: '${who}', n: '${n}' } }, { url: '/echo?q=world&n=8' }],
    [
      'JSON arguments keep substituted types',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, arguments: { n: '${n}' } },
      { body: '{"n":8}' },
    ],
  ];
  it.each(cases)('%s', async (_name, provider, expected) => {
    const port = new URL(base).port;
    const url = provider.url?.startsWith('/')
      ? `${base}${provider.url}`
      : provider.url?.replace('PORT', port);
    const { status, seen } = await echo({ ...provider, ...(url ? { url } : {}) });
    expect(status).toBe(200);
    const { contentType, ...rest } = expected;
    expect(seen).toMatchObject(rest);
    if (contentType) expect(seen.headers['content-type']).toBe(contentType);
  });

  it('sends headers, substituted, dropping null ones', async () => {
    const { seen } = await echo({
      headers: { Authorization: 'Bearer ${token}', 'X-N': '${n}', 'X-Null': null },
    });
    expect(seen.headers.authorization).toBe('Bearer tok-123456');
    expect(seen.headers['x-n']).toBe('8');
    expect(seen.headers).not.toHaveProperty('x-null');
  });
});

describe('runHttp responses', () => {
  // [name, path, status, body]
  const cases: [string, string, number, unknown][] = [
    ['JSON body parsed', '/missing', 404, { error: 'not found' }],
    ['JSON with a charset parsed', '/json-charset', 200, { ok: true }],
    ['invalid JSON kept as text', '/bad-json', 200, '{not json'],
    ['text', '/text', 200, 'plain text'],
    ['no content', '/no-content', 204, ''],
    ['redirects followed', '/redirect', 200, 'plain text'],
  ];
  it.each(cases)('%s', async (_name, path, status, body) => {
    const result = await runHttp({ url: `${base}${path}` }, {});
    expect(result.status).toBe(status);
    expect(result.body).toEqual(body);
  });

  it('returns lower-case headers, joining set-cookie', async () => {
    const result = await runHttp({ url: `${base}/cookies` }, {});
    expect(result.headers).toMatchObject({ 'x-custom': 'yes', 'set-cookie': 'a=1, b=2' });
  });
});

describe('runHttp failures', () => {
  // [name, provider, message]
  const cases: [string, () => HttpProvider, RegExp][] = [
    [
      'connection refused',
      () => ({ url: `http://127.0.0.1:${closedPort}/` }),
      /^failed to connect to http:\/\/127\.0\.0\.1:\d+\/: connect ECONNREFUSED/,
    ],
    ['timeout', () => ({ url: `${base}/slow`, timeout: 0.3 }), /^activity took too long to complete$/],
    [
      'timeout pair (sum)',
      () => ({ url: `${base}/slow`, timeout: [0.1, 0.2] }),
      /^activity took too long to complete$/,
    ],
    [
      'timeout substituted',
      () => ({ url: `${base}/slow`, timeout: '${seconds}' }),
      /^activity took too long to complete$/,
    ],
    [
      'timeout while reading the body',
      () => ({ url: `${base}/slow-body`, timeout: 0.3 }),
      /^activity took too long to complete$/,
    ],
    [
      'bad timeout',
      () => ({ url: `${base}/`, timeout: 'soon' }),
      /timeout must be a number of seconds or a pair/,
    ],
    ['invalid URL', () => ({ url: 'not a url' }), /HTTP activity URL 'not a url' is invalid/],
    ['no URL', () => ({ url: '' }), /must have a URL/],
    [
      'GET with list arguments',
      () => ({ url: `${base}/`, arguments: [1, 2] }),
      /arguments of a GET must be a mapping or a query string/,
    ],
  ];
  it.each(cases)('%s → ActivityFailed', async (_name, provider, message) => {
    const started = Date.now();
    const error = await runHttp(provider(), { configuration, secrets }).catch((e: unknown) => e);
    expect(isChaosError(error, 'ActivityFailed')).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('rejects with the abort reason when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted by the user')), 100);
    const error = await runHttp({ url: `${base}/slow`, timeout: 10 }, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('interrupted by the user');
  });

  it('redacts secrets in messages', async () => {
    const { registerSecret } = await import('@chaoskit/core/runner');
    registerSecret('tok-123456');
    const error = await runHttp(
      { url: `http://127.0.0.1:${closedPort}/?t=\${token}` },
      { configuration, secrets },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toContain('t=***');
    expect((error as Error).message).not.toContain('tok-123456');
  });
});

describe('runHttp verify_tls', () => {
  let tlsDir: string;
  let httpsServer: ReturnType<typeof createHttpsServer> | undefined;
  let httpsBase = '';

  beforeAll(async () => {
    tlsDir = mkdtempSync(join(tmpdir(), 'chaoskit-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-keyout',
          join(tlsDir, 'key.pem'),
          '-out',
          join(tlsDir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
    } catch {
      return; // no openssl: the tests below are skipped
    }
    httpsServer = createHttpsServer(
      { key: readFileSync(join(tlsDir, 'key.pem')), cert: readFileSync(join(tlsDir, 'cert.pem')) },
      (req, res) => void handler(req, res),
    );
    await new Promise<void>((resolve) => httpsServer?.listen(0, '127.0.0.1', resolve));
    httpsBase = `https://127.0.0.1:${(httpsServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (httpsServer) {
      httpsServer.closeAllConnections();
      await new Promise((resolve) => httpsServer?.close(resolve));
    }
    rmSync(tlsDir, { recursive: true, force: true });
  });

  it('refuses a self-signed certificate by default', async (ctx) => {
    if (!httpsServer) ctx.skip();
    const error = await runHttp({ url: `${httpsBase}/text` }, {}).catch((e: unknown) => e);
    expect(isChaosError(error, 'ActivityFailed')).toBe(true);
    expect((error as Error).message).toMatch(/^failed to connect to https:.*self-signed certificate/);
  });

  it('accepts it with verify_tls: false', async (ctx) => {
    if (!httpsServer) ctx.skip();
    const result = await runHttp(
      {
        url: `${httpsBase}/echo`,
        method: 'POST',
        verify_tls: false,
        headers: { 'content-type': 'application/json' },
        arguments: { a: 1 },
      },
      {},
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  it('applies the timeout with verify_tls: false too', async (ctx) => {
    if (!httpsServer) ctx.skip();
    const error = await runHttp({ url: `${httpsBase}/slow`, verify_tls: false, timeout: 0.3 }, {}).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('activity took too long to complete');
  });

  it('needs no undici for plain http', async () => {
    const result = await runHttp({ url: `${base}/text`, verify_tls: false }, {});
    expect(result.body).toBe('plain text');
  });
});

describe('validateHttpProvider', () => {
  const cases: [string, unknown, string | undefined][] = [
    ['minimal', { type: 'http', url: 'http://example.com/' }, undefined],
    [
      'full',
      {
        type: 'http',
        url: 'https://example.com/x',
        method: 'post',
        headers: { a: 'b' },
        arguments: { x: 1 },
        timeout: [1, 5],
        verify_tls: false,
        expected_status: 200,
      },
      undefined,
    ],
    ['placeholder URL', { type: 'http', url: '${base_url}/health' }, undefined],
    ['placeholder timeout', { type: 'http', url: 'http://x/', timeout: '${t}' }, undefined],
    ['not a mapping', 'http://x', 'a HTTP provider must be a mapping'],
    ['no URL', { type: 'http' }, 'a HTTP activity must have a URL'],
    ['blank URL', { type: 'http', url: ' ' }, 'a HTTP activity must have a URL'],
    ['invalid URL', { type: 'http', url: 'nope' }, "HTTP activity URL 'nope' is invalid"],
    [
      'other scheme',
      { type: 'http', url: 'ftp://x/' },
      "HTTP activity URL 'ftp://x/' must use http or https",
    ],
    [
      'headers not a mapping',
      { type: 'http', url: 'http://x/', headers: ['a'] },
      'a HTTP activity expects headers as a mapping',
    ],
    [
      'empty method',
      { type: 'http', url: 'http://x/', method: '' },
      'a HTTP activity method must be a non-empty string',
    ],
    [
      'bad timeout',
      { type: 'http', url: 'http://x/', timeout: 'soon' },
      'a HTTP activity timeout must be a number of seconds or a pair [connect, read], got "soon"',
    ],
    [
      'zero timeout',
      { type: 'http', url: 'http://x/', timeout: 0 },
      'a HTTP activity timeout must be a number of seconds or a pair [connect, read], got 0',
    ],
    [
      'timeout triple',
      { type: 'http', url: 'http://x/', timeout: [1, 2, 3] },
      'a HTTP activity timeout must be a number of seconds or a pair [connect, read], got [1,2,3]',
    ],
    [
      'verify_tls not a boolean',
      { type: 'http', url: 'http://x/', verify_tls: 'no' },
      'a HTTP activity verify_tls must be a boolean',
    ],
  ];
  it.each(cases)('%s', (_name, provider, problem) => {
    expect(validateHttpProvider(provider)).toBe(problem);
  });
});
