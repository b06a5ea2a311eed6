// What `chaoskit run` says when its traces or metrics cannot be sent (D164), as users see it: the
// built command, a run that needs no cluster (a process probe), real endpoints — a port nobody
// listens on, an HTTP server that refuses or is unavailable. Each failure is one line naming the
// signal, the endpoint and its protocol, and the cause; the run itself is not failed by it.

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@chaoskit/cluster/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { runCli, spawnCli } from '../testing/test-cli.js';
import { writeExperiment } from '../testing/test-experiments.js';

// The command starts once or twice per test: on 2 shared cores, that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

let dir: string;
let file: string;
/** The environment without the OTEL_* variables of whoever runs the tests. */
const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-telemetry-'));
  file = await writeExperiment(join(dir, 'experiment.yaml'), {
    title: 'nothing but a process',
    description: 'needs no cluster',
    method: [{ type: 'probe', name: 'true', provider: { type: 'process', path: 'true' } }],
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function run(env: Record<string, string>, args: string[] = []) {
  const journal = join(dir, `journal-${Math.random().toString(36).slice(2)}.json`);
  // OTEL_EXPORTER_OTLP_TIMEOUT bounds the exporter's retries, so that a dead endpoint costs a
  // second or two at the end of the run rather than ten.
  const out = await runCli(['run', file, '--no-ledger', '--journal-path', journal, ...args], {
    cwd: dir,
    env: { ...clean, OTEL_EXPORTER_OTLP_TIMEOUT: '1500', ...env },
  });
  return { ...out, telemetry: out.stderr.split('\n').filter((line) => line.includes('telemetry:')) };
}

/** An HTTP server answering every POST with `status` and `body`, keeping what it was sent. */
async function answering(status: number, body: string) {
  const received: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    received.push({ path: req.url ?? '', headers: req.headers });
    req.resume().on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, [Symbol.asyncDispose]: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('an OTLP endpoint that takes nothing', () => {
  it('nobody listening: one line, the exporter, its endpoint and ECONNREFUSED', async () => {
    const port = await freePort();
    const out = await run({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    });
    expect(out.code, out.stderr).toBe(EXIT.ok);
    // The general endpoint turns metrics on too: each signal says so, once.
    expect(out.telemetry.map((line) => line.replace(/^\[[^\]]*\] /, '')).sort()).toEqual([
      `telemetry: metrics not sent to http://127.0.0.1:${port}/v1/metrics (OTLP http/protobuf): connect ECONNREFUSED 127.0.0.1:${port}`,
      `telemetry: traces not sent to http://127.0.0.1:${port}/v1/traces (OTLP http/protobuf): connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
  });

  it('over gRPC: the gRPC status, and the connection error under it', async () => {
    const port = await freePort();
    const out = await run({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}`,
    });
    expect(out.code, out.stderr).toBe(EXIT.ok);
    expect(out.telemetry).toHaveLength(1);
    expect(out.telemetry[0]).toMatch(
      new RegExp(
        `telemetry: traces not sent to http://127\\.0\\.0\\.1:${port}/ \\(OTLP grpc\\): gRPC 14 UNAVAILABLE: .*connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`,
      ),
    );
  });

  it('an HTTP answer it refuses: the status and what the server said, the credentials and query not shown', async () => {
    await using server = await answering(404, 'otlp write receiver needs to be enabled\n');
    const endpoint = server.url.replace('http://', 'http://user:secret@');
    const out = await run({
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${endpoint}/api/v1/otlp/v1/metrics?token=t0ken`,
    });
    expect(out.code, out.stderr).toBe(EXIT.ok);
    expect(out.telemetry).toHaveLength(1);
    expect(out.telemetry[0]).toContain(
      `telemetry: metrics not sent to ${server.url}/api/v1/otlp/v1/metrics (OTLP http/json): HTTP 404 Not Found: otlp write receiver needs to be enabled`,
    );
    expect(out.stderr).not.toMatch(/secret|t0ken/);
    // Sent as JSON, where it was asked.
    expect(server.received.map((r) => [r.path, r.headers['content-type']])).toEqual([
      ['/api/v1/otlp/v1/metrics?token=t0ken', 'application/json'],
    ]);
  });

  it('an endpoint that is unavailable to every attempt: the statuses the exporter retried', async () => {
    await using server = await answering(503, 'overloaded');
    const out = await run({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${server.url}/v1/traces`,
    });
    expect(out.code, out.stderr).toBe(EXIT.ok);
    expect(out.telemetry).toHaveLength(1);
    expect(out.telemetry[0]).toContain(
      `telemetry: traces not sent to ${server.url}/v1/traces (OTLP http/protobuf): the endpoint answered 429, 502, 503 or 504 until the exporter gave up`,
    );
    expect(server.received.length).toBeGreaterThan(1);
  });
});

describe('/metrics', () => {
  it('is announced at the address bound (localhost by default), which serves them in seconds', async () => {
    const port = await freePort();
    // One probe done (a duration to serve), then one that lasts until the test ends the run.
    const held = await writeExperiment(join(dir, 'held.yaml'), {
      title: 'held',
      description: 'serves its metrics while it runs',
      method: [
        { type: 'probe', name: 'quick', provider: { type: 'process', path: 'true' } },
        // Its timeout bounds a hang; the test's SIGTERM ends it, the process group with it.
        {
          type: 'probe',
          name: 'hold',
          provider: { type: 'process', path: 'sleep', arguments: '600', timeout: 120 },
        },
      ],
    });
    const child = spawnCli(
      ['run', held, '--no-ledger', '--journal-path', join(dir, 'held.json'), '--metrics-port', String(port)],
      { cwd: dir, env: clean },
    );
    try {
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr!.on('data', (chunk) => {
          stderr += chunk;
          if (stderr.includes('Probe: hold')) resolve();
        });
        child.once('exit', () => reject(new Error(`the run ended first:\n${stderr}`)));
      });
      const announced = /Metrics served on (\S+)/.exec(stderr)?.[1];
      const url = new URL(announced!);
      expect([url.hostname, url.port, url.pathname]).toEqual([
        expect.stringMatching(/^(127\.0\.0\.1|\[::1\])$/),
        String(port),
        '/metrics',
      ]);
      const text = await (await fetch(url)).text();
      expect(text).toContain('# TYPE chaoskit_activity_duration_seconds histogram');
      // Edges in seconds, from 10 ms to an hour.
      const edges = [...text.matchAll(/^chaoskit_activity_duration_seconds_bucket\{.*le="([^"]+)"\} \d+$/gm)];
      expect(edges.map((m) => m[1])).toEqual([
        '0.01',
        '0.05',
        '0.1',
        '0.25',
        '0.5',
        '1',
        '2.5',
        '5',
        '10',
        '30',
        '60',
        '120',
        '300',
        '600',
        '1800',
        '3600',
        '+Inf',
      ]);
      expect(text).not.toContain('chaoskit_activity_duration_bucket');
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  it('a port already taken refuses the run before it starts, naming the option, the address and why', async () => {
    await using taken = await answering(200, '');
    const port = new URL(taken.url).port;
    const out = await run({ OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' }, ['--metrics-port', port]);
    expect(out.code).toBe(EXIT.refused);
    expect(out.stderr).toContain(
      `chaoskit: --metrics-port: cannot serve metrics on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
    );
    expect(out.stderr).not.toContain('Running experiment');
  });
});
