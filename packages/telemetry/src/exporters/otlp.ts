// The OTLP exporters, each imported when its protocol is asked for: http/protobuf (the
// specification's default), http/json, or gRPC (optional peers, which alone load @grpc/grpc-js).
// Each is given the endpoint the runner resolved; headers, timeout, compression and certificates
// the exporter reads from OTEL_EXPORTER_OTLP_* itself. Its failures are reported (reporting.ts).

import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpTarget } from '../choice.js';
import { type ExportFailure, reportingFailures } from './reporting.js';

/** What the gRPC exporters take, as this package's optional peer dependencies name them. */
const GRPC_PACKAGES = [
  '@opentelemetry/exporter-trace-otlp-grpc@^0.301.0',
  '@opentelemetry/exporter-metrics-otlp-grpc@^0.301.0',
  '@grpc/grpc-js@^1.14.7',
];

/**
 * The gRPC exporters, which are optional peers of this package: they bring protobufjs, whose
 * install script npm 11 warns of on every install, for a protocol that is not the default.
 */
async function grpc(): Promise<typeof import('./grpc.js')> {
  try {
    return await import('./grpc.js');
  } catch (err) {
    const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      /Cannot find (package|module) '(@grpc\/grpc-js|@opentelemetry\/exporter-(trace|metrics)-otlp-grpc)'/.test(
        String(message),
      );
    if (!missing) throw err;
    throw new Error(
      `OTLP over gRPC needs OpenTelemetry's gRPC exporters, which @chaoskit/telemetry leaves out: npm install ${GRPC_PACKAGES.join(' ')} (or send OTLP over http/protobuf, the default)`,
    );
  }
}

async function makeSpanExporter(target: OtlpTarget): Promise<SpanExporter> {
  const options = { url: target.url, ...(target.headers ? { headers: target.headers } : {}) };
  switch (target.protocol) {
    case 'grpc':
      return (await grpc()).grpcSpanExporter(target);
    case 'http/json':
      return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(options);
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(options);
  }
}

async function makeMetricExporter(target: OtlpTarget): Promise<PushMetricExporter> {
  const options = { url: target.url, ...(target.headers ? { headers: target.headers } : {}) };
  switch (target.protocol) {
    case 'grpc':
      return (await grpc()).grpcMetricExporter(target);
    case 'http/json':
      return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter(options);
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter(options);
  }
}

type Failed = (failure: ExportFailure) => void;

export async function spanExporter(target: OtlpTarget, failed: Failed): Promise<SpanExporter> {
  return reportingFailures(await makeSpanExporter(target), { signal: 'traces', target }, failed);
}

export async function metricExporter(target: OtlpTarget, failed: Failed): Promise<PushMetricExporter> {
  return reportingFailures(await makeMetricExporter(target), { signal: 'metrics', target }, failed);
}
