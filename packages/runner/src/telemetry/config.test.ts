import { describe, expect, it } from 'vitest';
import { experimentTracing } from '../controls/tracing.js';
import { askedBy, telemetryChoice } from './config.js';

describe('telemetryChoice', () => {
  it('turns nothing on unless asked: @chaoskit/telemetry is not loaded', () => {
    expect(telemetryChoice({})).toEqual({});
    expect(telemetryChoice({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({});
  });

  it("sends traces for OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint, to the specification's endpoint", () => {
    expect(telemetryChoice({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({
      traces: {
        protocol: 'http/protobuf',
        url: 'http://localhost:4318/v1/traces',
        by: 'OTEL_TRACES_EXPORTER=otlp',
      },
    });
    expect(
      telemetryChoice({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }),
    ).toEqual({
      traces: { protocol: 'grpc', url: 'http://c:4317', by: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' },
    });
    // The general endpoint is for every signal: metrics are pushed too (every 60 s and at the end);
    // over HTTP its path is followed by the signal's, over gRPC it is taken as it is.
    expect(
      telemetryChoice({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/otlp/?tenant=a',
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
        OTEL_METRIC_EXPORT_INTERVAL: '5000',
      }),
    ).toEqual({
      traces: {
        protocol: 'http/protobuf',
        url: 'http://c:4318/otlp/v1/traces?tenant=a',
        by: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      },
      metrics: {
        push: {
          protocol: 'grpc',
          url: 'http://c:4318/otlp/?tenant=a',
          intervalMs: 5000,
          by: 'OTEL_EXPORTER_OTLP_ENDPOINT',
        },
      },
    });
    // OTLP/HTTP with JSON, a protocol the specification defines.
    expect(
      telemetryChoice({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).metrics,
    ).toEqual({
      push: {
        protocol: 'http/json',
        url: 'http://localhost:4318/v1/metrics',
        intervalMs: 60_000,
        by: 'OTEL_METRICS_EXPORTER=otlp',
      },
    });
  });

  it('keeps off what `none` or OTEL_SDK_DISABLED turns off', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(
      telemetryChoice({ ...endpoint, OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }),
    ).toEqual({});
    expect(telemetryChoice({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toEqual({});
    // --metrics-port is the command line's own: served all the same.
    expect(telemetryChoice({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, { metricsPort: 9500 })).toEqual({
      metrics: { serve: { port: 9500, by: '--metrics-port' } },
    });
  });

  it('serves /metrics for OTEL_METRICS_EXPORTER=prometheus or --metrics-port, on its port and host', () => {
    expect(telemetryChoice({ OTEL_METRICS_EXPORTER: 'prometheus' })).toEqual({
      metrics: { serve: { port: 9464, by: 'OTEL_METRICS_EXPORTER=prometheus' } },
    });
    const both = telemetryChoice({
      OTEL_METRICS_EXPORTER: 'otlp, prometheus',
      OTEL_EXPORTER_PROMETHEUS_PORT: '9100',
      OTEL_EXPORTER_PROMETHEUS_HOST: '0.0.0.0',
    });
    expect(both).toEqual({
      metrics: {
        push: {
          protocol: 'http/protobuf',
          url: 'http://localhost:4318/v1/metrics',
          intervalMs: 60_000,
          by: 'OTEL_METRICS_EXPORTER=otlp',
        },
        serve: { port: 9100, host: '0.0.0.0', by: 'OTEL_METRICS_EXPORTER=prometheus' },
      },
    });
    expect(askedBy(both)).toBe('OTEL_METRICS_EXPORTER=otlp, OTEL_METRICS_EXPORTER=prometheus');
    expect(telemetryChoice({ OTEL_EXPORTER_PROMETHEUS_HOST: '::' }, { metricsPort: 9500 })).toEqual({
      metrics: { serve: { port: 9500, host: '::', by: '--metrics-port' } },
    });
  });

  it('refuses what it cannot honour, naming the variable and what it takes', () => {
    expect(() => telemetryChoice({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      "OTEL_TRACES_EXPORTER names 'zipkin': chaoskit takes otlp, none",
    );
    expect(() =>
      telemetryChoice({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' }),
    ).toThrow(
      "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is 'http/xml': chaoskit sends OTLP as http/protobuf, http/json, grpc",
    );
    // The exporters took a value that is no URL for localhost; gRPC's took host:port for https.
    expect(() => telemetryChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' })).toThrow(
      "OTEL_EXPORTER_OTLP_ENDPOINT is 'collector:4317': an OTLP endpoint is an http:// or https:// URL",
    );
    // Shown without what may be a credential.
    expect(() =>
      telemetryChoice({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'ftp://user:secret@c/?token=t' }),
    ).toThrow(
      "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is 'ftp://c/': an OTLP endpoint is an http:// or https:// URL",
    );
    expect(() =>
      telemetryChoice({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: 'x' }),
    ).toThrow("OTEL_EXPORTER_PROMETHEUS_PORT is 'x': a port, from 1 to 65535");
    expect(() =>
      telemetryChoice({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: '0' }),
    ).toThrow(/OTEL_METRIC_EXPORT_INTERVAL is '0'/);
  });

  it("turns traces on for the experiment's tracing control, unless OTEL_TRACES_EXPORTER=none", () => {
    const tracing = { protocol: 'grpc' as const, url: 'http://c:4317' };
    const by = "the experiment's tracing control";
    expect(telemetryChoice({}, { tracing })).toEqual({ traces: { ...tracing, by } });
    expect(telemetryChoice({ OTEL_TRACES_EXPORTER: 'none' }, { tracing })).toEqual({});
    // Without an endpoint of its own, the environment's protocol and endpoint.
    expect(
      telemetryChoice({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, { tracing: { protocol: 'http/protobuf' } }),
    ).toEqual({ traces: { protocol: 'grpc', url: 'http://localhost:4317', by } });
  });
});

describe('experimentTracing', () => {
  const control = (module: string, args?: Record<string, unknown>) => ({
    name: 'tracing',
    provider: { type: 'python', module, ...(args ? { arguments: args } : {}) },
  });

  it('maps chaostracing.oltp onto OTLP as the environment configures it', () => {
    expect(experimentTracing([control('chaostracing.oltp', { trace_requests: true })], {}, {})).toEqual({
      tracing: { protocol: 'http/protobuf' },
      problems: [],
    });
  });

  it("maps chaostracing.control's opentelemetry exporter, from its arguments or the configuration", () => {
    const args = {
      provider: 'opentelemetry',
      exporter: 'oltp-grpc',
      collector_endpoint: 'http://collector:4317',
      collector_headers: { authorization: 'Bearer x' },
    };
    expect(experimentTracing([control('chaostracing.control', args)], {}, {})).toEqual({
      tracing: { protocol: 'grpc', url: 'http://collector:4317', headers: { authorization: 'Bearer x' } },
      problems: [],
    });
    const configuration = {
      tracing_provider: 'opentelemetry',
      tracing_opentelemetry_exporter: 'oltp-http',
      tracing_opentelemetry_collector_endpoint: 'http://collector:4318/v1/traces',
    };
    expect(experimentTracing([control('chaostracing.control')], configuration, {})).toEqual({
      tracing: { protocol: 'http/protobuf', url: 'http://collector:4318/v1/traces' },
      problems: [],
    });
    // Its default provider traces nothing.
    expect(experimentTracing([control('chaostracing.control')], {}, {})).toEqual({ problems: [] });
  });

  it('refuses what chaoskit cannot send, saying what it can', () => {
    const { problems } = experimentTracing(
      [
        control('chaostracing.control', { provider: 'jaeger' }),
        control('chaostracing.control', { provider: 'opentelemetry', exporter: 'jaeger-thrift' }),
        control('chaostracing.oltp'),
        control('chaostracing.control', {
          provider: 'opentelemetry',
          exporter: 'oltp-grpc',
          collector_endpoint: 'collector:4317',
        }),
      ],
      { otel_vendor: 'gcp' },
      {},
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^tracing control 'tracing': provider "jaeger" is not one chaoskit sends to\. .*take OTLP/,
      ),
      expect.stringMatching(
        /exporter "jaeger-thrift" is not one chaoskit sends with \(oltp-grpc, oltp-http\)/,
      ),
      expect.stringMatching(/otel_vendor "gcp" needs a vendor's exporter/),
      "tracing control 'tracing': collector_endpoint is an http:// or https:// URL",
    ]);
  });
});
