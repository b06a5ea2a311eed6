import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsTarget extends AsyncDisposable {
  /** `127.0.0.1:<port>`: what a scrape job's `targets` take (metrics at `/metrics`). */
  readonly address: string;
  /** Sets a gauge's value (the series appears on its first set); the next scrape sees it. */
  set(name: string, value: number, labels?: Record<string, string>): void;
  /** Stops serving: Prometheus then records the target down (`up` 0). */
  close(): Promise<void>;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function sampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/**
 * A scrape target that a test controls: gauges in Prometheus's text format on a free
 * 127.0.0.1 port, each set by the test (a service's health that a PromQL guard watches).
 */
export async function serveMetrics(): Promise<MetricsTarget> {
  // name → (label set as text → value)
  const gauges = new Map<string, Map<string, number>>();
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    const lines = [...gauges].flatMap(([name, series]) => [
      `# TYPE ${name} gauge`,
      ...[...series].map(([labels, value]) => `${name}${labels} ${sampleValue(value)}`),
    ]);
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(`${lines.join('\n')}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  const set = (name: string, value: number, labels: Record<string, string> = {}) => {
    if (!METRIC_NAME.test(name)) throw new Error(`serveMetrics: '${name}' is not a Prometheus metric name`);
    const bad = Object.keys(labels).find((l) => !LABEL_NAME.test(l));
    if (bad !== undefined) throw new Error(`serveMetrics: '${bad}' is not a Prometheus label name`);
    const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
    const key = pairs.length ? `{${pairs.join(',')}}` : '';
    if (!gauges.has(name)) gauges.set(name, new Map());
    gauges.get(name)!.set(key, value);
  };
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  return { address, set, close, [Symbol.asyncDispose]: close };
}
