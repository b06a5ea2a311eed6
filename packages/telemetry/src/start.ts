// The OpenTelemetry SDK as a run uses it: spans batched to an OTLP exporter, metrics pushed over
// OTLP and/or served on `/metrics`, the context carried through async calls (so that core's
// request spans are the children of the activity under way), and W3C trace context for what the
// run sends out. Each exporter is imported only when it is used.

import { context, DiagLogLevel, diag, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  detectResources,
  resourceAttributesEnvDetector,
  resourceFromAttributes,
  serviceNameEnvDetector,
} from '@opentelemetry/resources';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { TelemetryChoice } from './choice.js';
import { metricExporter, spanExporter } from './exporters/otlp.js';
import { serveMetrics } from './exporters/prometheus.js';
import type { ExportFailure } from './exporters/reporting.js';

export interface StartOptions {
  /** The resource's service.version (the runner's). */
  serviceVersion: string;
  /** An export that failed (once until its cause changes). */
  failed(failure: ExportFailure): void;
  /** Where any other complaint of the SDK's goes, as one line. */
  report(line: string): void;
}

export interface Started {
  /** Where `/metrics` is served, as bound: `http://127.0.0.1:9464/metrics`. */
  metricsUrl?: string;
  /** Sends what is left (spans, a last push of the metrics) and stops. */
  shutdown(): Promise<void>;
}

/** A diagnostic's arguments as one line (a component's logger passes its name first). */
function diagnostic(args: unknown[]): string {
  return args
    .map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : JSON.stringify(arg)))
    .join(' ')
    .replace(/\s+/g, ' ');
}

export async function startTelemetry(choice: TelemetryChoice, options: StartOptions): Promise<Started> {
  const { failed, report } = options;
  // The SDK's warnings and errors, each in one line, through the run's log; the exporters' own
  // failures are reported by them (exporters/reporting.ts).
  const say = (...args: unknown[]) => report(diagnostic(args));
  diag.setLogger(
    { error: say, warn: say, info: () => {}, debug: () => {}, verbose: () => {} },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  setGlobalErrorHandler((error) => say(error));
  // service.name chaoskit, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = resourceFromAttributes({
    'service.name': 'chaoskit',
    'service.version': options.serviceVersion,
  }).merge(detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }));
  const stops: Array<() => Promise<void>> = [];
  // First what may fail (a port taken), before anything is registered.
  const served = choice.metrics?.serve ? await serveMetrics(choice.metrics.serve) : undefined;
  if (served) stops.push(served.close);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (choice.traces) {
    const { BatchSpanProcessor, TracerProvider } = await import('@opentelemetry/sdk-trace');
    const exporter = await spanExporter(choice.traces, failed);
    const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter })] });
    trace.setGlobalTracerProvider(provider);
    stops.push(() => provider.shutdown());
  }
  if (choice.metrics) {
    const { MeterProvider, PeriodicExportingMetricReader } = await import('@opentelemetry/sdk-metrics');
    const readers: MetricReader[] = served ? [served.reader] : [];
    const { push } = choice.metrics;
    if (push)
      readers.push(
        new PeriodicExportingMetricReader({
          exporter: await metricExporter(push, failed),
          exportIntervalMillis: push.intervalMs,
          exportTimeoutMillis: Math.min(push.intervalMs, 30_000),
        }),
      );
    const provider = new MeterProvider({ resource, readers });
    metrics.setGlobalMeterProvider(provider);
    stops.push(() => provider.shutdown());
  }
  return {
    ...(served ? { metricsUrl: served.url } : {}),
    shutdown: async () => {
      for (const result of await Promise.allSettled(stops.map((stop) => stop())))
        if (result.status === 'rejected') say(result.reason);
    },
  };
}
