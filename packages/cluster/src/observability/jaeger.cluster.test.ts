import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningJaeger, startJaeger } from './jaeger.js';
import { spanTree, treeShape } from './spans.js';

// A real Jaeger v2 (built on first use): a one-shot process sends a trace with the
// OpenTelemetry JS SDK, over OTLP/HTTP and over OTLP/gRPC, configured only by the standard
// OTEL_* variables; the test reads it back by trace id as a tree. Uses no cluster.

const execFileAsync = promisify(execFile);
const SENDER = fileURLToPath(new URL('./test-send-spans.ts', import.meta.url));

let jaeger: RunningJaeger;

beforeAll(async () => {
  const began = Date.now();
  jaeger = await startJaeger();
  process.stderr.write(
    `jaeger start: ${JSON.stringify({ version: jaeger.version, ms: Date.now() - began, readyMs: jaeger.readyMs })}\n`,
  );
}, 1_800_000);

afterAll(async () => {
  await jaeger?.stop();
});

describe.each(['http/protobuf', 'grpc'] as const)('startJaeger, spans over OTLP %s', (protocol) => {
  it('keeps the trace, and it reads back as the tree that was sent', async () => {
    const service = `chaoskit-${protocol.replace('/', '-')}-${randomBytes(4).toString('hex')}`;
    // #region jaeger
    // A one-shot process sends a trace with the OpenTelemetry SDK, configured by OTEL_* alone
    // (protocol 'http/protobuf' or 'grpc'), and prints its trace id.
    const sent = await execFileAsync(process.execPath, [SENDER, service], {
      env: { ...process.env, ...jaeger.otelEnv(protocol) },
    });
    const traceId = sent.stdout.trim();
    const spans = await jaeger.waitForTrace(traceId, { spans: 5 }); // TraceSpan[]: ids, attributes, events, status
    const [run] = spanTree(spans); // each span with its children, in start order
    expect(treeShape(spanTree(spans))).toEqual([
      { run: [{ method: [{ 'action kill_pods': ['DELETE pods'] }, 'probe pods_ready'] }] },
    ]);
    // #endregion
    expect(sent.stderr).toBe('');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spans).toHaveLength(5);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set([service]));
    const found = await jaeger.findTraces(service);
    expect(found.map((t) => [t[0]!.traceId, t.length])).toEqual([[traceId, 5]]);

    const method = run!.children[0]!;
    const [activity, probe] = method.children;
    expect(activity!.attributes).toEqual({
      'chaoskit.activity': 'kill_pods',
      'chaoskit.dry_run': false,
      'chaoskit.targets': ['a', 'b'],
    });
    expect(activity!.events.map((e) => [e.name, e.attributes])).toEqual([
      ['fault applied', { 'chaoskit.pods': 2 }],
    ]);
    const request = activity!.children[0]!;
    expect(request.kind).toBe('client');
    expect(request.attributes['http.response.status_code']).toBe(200);
    expect(probe!.status).toEqual({ code: 'error', message: '1 of 2 pods not ready' });
    expect(run!.status.code).toBe('unset');
    expect(run!.startMs).toBeLessThanOrEqual(request.startMs);
  });
});

describe('trace', () => {
  it('is empty for a trace Jaeger never received', async () => {
    expect(await jaeger.trace(randomBytes(16).toString('hex'))).toEqual([]);
  });
});

describe('stop', () => {
  it('ends the process and removes its directory', async () => {
    const other = await startJaeger();
    const { pid, logFile } = other;
    expect(existsSync(logFile)).toBe(true);
    await other.stop();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(existsSync(logFile)).toBe(false);
  });
});
