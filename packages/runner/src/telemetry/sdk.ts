// The OpenTelemetry SDK, as telemetry.ts loads it (a dynamic import, only when traces or metrics
// are on; each part only when it is used): spans batched to an OTLP exporter, metrics pushed
// over OTLP and/or served on `/metrics`, the context carried through async calls (so that core's
// request spans are the children of the activity under way), and W3C trace context for what
// the run sends out.

import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  detectResources,
  resourceAttributesEnvDetector,
  resourceFromAttributes,
  serviceNameEnvDetector,
} from '@opentelemetry/resources';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import { exportsOf } from '../common-js.js';
import { RUNNER_VERSION } from '../version.js';
import type { OtlpChoice, TelemetryChoice } from './config.js';

export interface Started {
  /** Where `/metrics` is served, when it is. */
  metricsAddress?: string;
  /** Sends what is left (spans, a last push of the metrics) and stops. */
  shutdown(): Promise<void>;
}

const options = (choice: OtlpChoice) => ({
  ...(choice.url ? { url: choice.url } : {}),
  ...(choice.headers ? { headers: choice.headers } : {}),
});

async function spanExporter(choice: OtlpChoice) {
  if (choice.protocol === 'grpc') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
    const { Metadata } = exportsOf(await import('@grpc/grpc-js'));
    const metadata = new Metadata();
    for (const [k, v] of Object.entries(choice.headers ?? {})) metadata.set(k, v);
    return new OTLPTraceExporter({ ...(choice.url ? { url: choice.url } : {}), metadata });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(options(choice));
}

async function metricExporter(choice: OtlpChoice) {
  if (choice.protocol === 'grpc') {
    const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-grpc');
    return new OTLPMetricExporter();
  }
  const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto');
  return new OTLPMetricExporter();
}

export async function startSdk(choice: TelemetryChoice): Promise<Started> {
  // service.name chaoskit, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = resourceFromAttributes({
    'service.name': 'chaoskit',
    'service.version': RUNNER_VERSION,
  }).merge(detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }));
  const stops: Array<() => Promise<void>> = [];
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (choice.traces) {
    const { BatchSpanProcessor, TracerProvider } = await import('@opentelemetry/sdk-trace');
    const provider = new TracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor({ exporter: await spanExporter(choice.traces) })],
    });
    trace.setGlobalTracerProvider(provider);
    stops.push(() => provider.shutdown());
  }
  let metricsAddress: string | undefined;
  if (choice.metrics) {
    const { MeterProvider, PeriodicExportingMetricReader } = await import('@opentelemetry/sdk-metrics');
    const readers: MetricReader[] = [];
    const { push, serve } = choice.metrics;
    if (push)
      readers.push(
        new PeriodicExportingMetricReader({
          exporter: await metricExporter(push),
          exportIntervalMillis: push.intervalMs,
          exportTimeoutMillis: Math.min(push.intervalMs, 30_000),
        }),
      );
    if (serve) {
      const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus');
      const exporter = new PrometheusExporter({
        port: serve.port,
        ...(serve.host ? { host: serve.host } : {}),
        preventServerStart: true,
      });
      await exporter.startServer();
      metricsAddress = `${serve.host ?? '0.0.0.0'}:${serve.port}`;
      readers.push(exporter);
    }
    const provider = new MeterProvider({ resource, readers });
    metrics.setGlobalMeterProvider(provider);
    stops.push(() => provider.shutdown());
  }
  return {
    ...(metricsAddress ? { metricsAddress } : {}),
    shutdown: async () => {
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}
