import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../host/until.js';
import { type RunningPrometheus, startPrometheus } from './prometheus.js';
import { PromQueryError } from './promql.js';
import { type MetricsTarget, serveMetrics } from './target.js';

// A real Prometheus (built on first use): it scrapes a target this file serves and changes
// (serveMetrics), and takes a push from a one-shot process over OTLP. Uses no cluster.

const execFileAsync = promisify(execFile);

let target: MetricsTarget;
let prometheus: RunningPrometheus;

function report(what: string, data: unknown): void {
  process.stderr.write(`prometheus ${what}: ${JSON.stringify(data)}\n`);
}

beforeAll(async () => {
  const began = Date.now();
  // #region prometheus
  target = await serveMetrics(); // gauges the test sets, on a free 127.0.0.1 port
  target.set('chaoskit_test_flag', 1);
  prometheus = await startPrometheus({ scrape: [{ job: 'flip', targets: [target.address] }] });
  // prometheus.url: its HTTP API; prometheus.otlpMetricsUrl, .remoteWriteUrl: where pushes go
  // #endregion
  report('start', { version: prometheus.version, ms: Date.now() - began, readyMs: prometheus.readyMs });
}, 1_800_000);

afterAll(async () => {
  await prometheus?.stop();
  await target?.close();
});

/** The flag's value as Prometheus last scraped it, once it has one. */
async function scrapedFlag(): Promise<number | undefined> {
  const [sample] = await prometheus.samples('chaoskit_test_flag{job="flip"}');
  return sample?.value;
}

describe('startPrometheus', () => {
  it('scrapes the target and PromQL sees the value flip', async () => {
    await until('the first scrape', async () => (await scrapedFlag()) === 1);
    // #region prometheus-query
    const [up] = await prometheus.samples('up{job="flip"}'); // [{ metric: { instance, job, … }, value: 1, time }]
    // also prometheus.query(promql): the typed answer (vector, scalar, matrix or string)
    // #endregion
    expect(up?.metric.instance).toBe(target.address);
    expect(up?.value).toBe(1);

    const flipped = Date.now();
    target.set('chaoskit_test_flag', 0);
    await until('a scrape after the flip', async () => (await scrapedFlag()) === 0);
    report('flip seen', { ms: Date.now() - flipped });
    // A comparison with the flip's value: what a PromQL guard asks.
    expect(await prometheus.samples('chaoskit_test_flag{job="flip"} > 0')).toEqual([]);

    await target.close();
    await until(
      'the target to be down',
      async () => (await prometheus.samples('up{job="flip"}'))[0]?.value === 0,
    );
  });

  it('takes a counter that a one-shot process pushes over OTLP/HTTP', async () => {
    const service = `chaoskit-push-${randomBytes(4).toString('hex')}`;
    const script = fileURLToPath(new URL('./test-push-metric.ts', import.meta.url));
    // #region prometheus-push
    // A one-shot process with the OpenTelemetry SDK's OTLP metric exporter pushes a counter
    // chaoskit.test.pushes (service.name = service): Prometheus names it as below.
    const pushed = await execFileAsync(process.execPath, [script, service, '3'], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: prometheus.otlpMetricsUrl },
    });
    const query = `chaoskit_test_pushes_total{job="${service}",outcome="succeeded"}`;
    // #endregion
    expect(pushed.stderr).toBe('');
    const sample = await until('the pushed counter', async () => (await prometheus.samples(query))[0]);
    report('pushed', { query, value: sample.value });
    expect(sample.value).toBe(3);
  });

  it('says why Prometheus refused a query', async () => {
    const refusal = await prometheus.query('sum(').catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(PromQueryError);
    expect((refusal as PromQueryError).errorType).toBe('bad_data');
  });
});

describe('stop', () => {
  it('ends the process and removes its directory', async () => {
    const other = await startPrometheus();
    const { pid, logFile } = other;
    expect(existsSync(logFile)).toBe(true);
    await other.stop();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(existsSync(logFile)).toBe(false);
  });
});
