// What the runner asks for: it reads the OTEL_* environment, `--metrics-port` and the
// experiment's tracing control, refuses what it cannot honour, and resolves each OTLP endpoint
// as the OpenTelemetry specification says, so that the endpoint a message names is the one used.

/** OTLP's encodings over HTTP, and gRPC: the values of OTEL_EXPORTER_OTLP_PROTOCOL. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** Where one signal goes over OTLP. */
export interface OtlpTarget {
  protocol: OtlpProtocol;
  /** The full URL (`…/v1/traces` over HTTP), or gRPC's `http(s)://host:port`. */
  url: string;
  /** Headers of the experiment's tracing control (the environment's are read by the exporter). */
  headers?: Record<string, string>;
}

export interface TelemetryChoice {
  traces?: OtlpTarget;
  metrics?: {
    /** Pushed over OTLP every `intervalMs` and when the run ends. */
    push?: OtlpTarget & { intervalMs: number };
    /**
     * Served for Prometheus to scrape on `/metrics` (host default: localhost, as the
     * specification's); `by`, what asked for it, is named when the port cannot be had.
     */
    serve?: { port: number; host?: string; by?: string };
  };
}
