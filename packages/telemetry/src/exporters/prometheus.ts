// `/metrics` for Prometheus to scrape, served by OpenTelemetry's Prometheus exporter from a
// server of chaoskit's own: the URL announced is the address the server bound (the exporter's
// own server keeps it to itself, and its default host, localhost, was announced as 0.0.0.0).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import type { CollectionResult, MetricData } from '@opentelemetry/sdk-metrics';
import type { TelemetryChoice } from '../choice.js';

type ServeChoice = NonNullable<NonNullable<TelemetryChoice['metrics']>['serve']>;

const PATH = '/metrics';

/**
 * A metric in seconds is named with `_seconds`, as Prometheus's OTLP translation names what a run
 * pushes, and as the specification of Prometheus exporters asks (the SDK's exporter adds no unit):
 * the same histogram is `chaoskit_run_duration_seconds` scraped or pushed.
 */
function withUnitSuffix(metric: MetricData): MetricData {
  const { name, unit } = metric.descriptor;
  if (unit !== 's' || /[._]seconds$/.test(name)) return metric;
  return { ...metric, descriptor: { ...metric.descriptor, name: `${name}_seconds`, unit: 'seconds' } };
}

class SecondsNamed extends PrometheusExporter {
  override async collect(options?: Parameters<PrometheusExporter['collect']>[0]): Promise<CollectionResult> {
    const collected = await super.collect(options);
    for (const scope of collected.resourceMetrics.scopeMetrics)
      scope.metrics = scope.metrics.map(withUnitSuffix);
    return collected;
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export interface Served {
  reader: PrometheusExporter;
  /** `http://<the address bound>:<port>/metrics`. */
  url: string;
  close(): Promise<void>;
}

/** Serves the metrics on `host:port` (host default localhost); rejects when it cannot listen there. */
export async function serveMetrics({ port, host = 'localhost', by }: ServeChoice): Promise<Served> {
  const reader = new SecondsNamed({ preventServerStart: true });
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://host').pathname === PATH) reader.getMetricsRequestHandler(req, res);
    else res.writeHead(404).end(`chaoskit serves its metrics on ${PATH}\n`);
  });
  // The run's end, not the server, decides when the process ends.
  server.unref();
  let bound: AddressInfo;
  try {
    bound = await listen(server, port, host);
  } catch (err) {
    throw new Error(
      `${by ? `${by}: ` : ''}cannot serve metrics on ${host}:${port}: ${(err as Error).message}`,
    );
  }
  const address = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    reader,
    url: `http://${address}:${bound.port}${PATH}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
