// The OTLP/gRPC exporters: a module of their own, imported only for OTEL_EXPORTER_OTLP_PROTOCOL=grpc,
// since @grpc/grpc-js is most of what they load. gRPC takes headers as metadata.

import { Metadata } from '@grpc/grpc-js';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import type { OtlpTarget } from '../choice.js';

function options(target: OtlpTarget) {
  if (!target.headers) return { url: target.url };
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(target.headers)) metadata.set(name, value);
  return { url: target.url, metadata };
}

export const grpcSpanExporter = (target: OtlpTarget) => new OTLPTraceExporter(options(target));

export const grpcMetricExporter = (target: OtlpTarget) => new OTLPMetricExporter(options(target));
