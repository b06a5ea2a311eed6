import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureJaeger, JAEGER_VERSION } from '../host/binaries.js';
import type { ProgressSink } from '../host/cache.js';
import { answers, startService } from './service.js';
import { type OtlpTraces, otlpSpans, type TraceSpan } from './spans.js';

export interface JaegerOptions {
  /** Build progress, when Jaeger must first be built (default: stderr). */
  progress?: ProgressSink;
}

export interface WaitForTraceOptions {
  /** Done once the trace has at least this many spans (default 1). */
  spans?: number;
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
}

export interface RunningJaeger extends AsyncDisposable {
  /** The Go module version built (github.com/jaegertracing/jaeger, its cmd/jaeger: Jaeger v2). */
  readonly version: string;
  /** OTLP/HTTP base URL (what OTEL_EXPORTER_OTLP_ENDPOINT takes; traces go to `/v1/traces`). */
  readonly otlpHttpUrl: string;
  /** OTLP/gRPC endpoint, `http://127.0.0.1:<port>` (plaintext). */
  readonly otlpGrpcUrl: string;
  /** Jaeger's query service (`/api/v3/…`, the HTTP API its UI uses). */
  readonly queryUrl: string;
  readonly pid: number;
  readonly logFile: string;
  /** Milliseconds from the process's spawn to every port answering. */
  readonly readyMs: number;
  /**
   * The standard OpenTelemetry variables that send a process's traces here (and nothing
   * else: metrics and logs exporters off), over OTLP/HTTP (protobuf or JSON) or OTLP/gRPC.
   */
  otelEnv(protocol?: 'http/protobuf' | 'http/json' | 'grpc'): Record<string, string>;
  /** The spans Jaeger holds for a trace (hex id), none when it holds none. */
  trace(traceId: string): Promise<TraceSpan[]>;
  /**
   * The traces of one service (its resource's service.name) that began since `since` (default:
   * the last 24 hours), each as its spans: for a process whose trace id the caller does not know.
   */
  findTraces(service: string, since?: Date): Promise<TraceSpan[][]>;
  /** Polls trace() until it has `spans` spans; throws after the timeout with how many it had. */
  waitForTrace(traceId: string, options?: WaitForTraceOptions): Promise<TraceSpan[]>;
  /** Ends Jaeger (its traces are in memory only) and removes its directory. */
  stop(): Promise<void>;
}

const at = (port: number) => `127.0.0.1:${port}`;

/** The five ports a Jaeger binds, by what each serves. */
function jaegerPorts(ports: number[]) {
  const [grpc, http, query, queryGrpc, health] = ports as [number, number, number, number, number];
  return { grpc, http, query, queryGrpc, health };
}

/** The collector's configuration: OTLP receivers in, Jaeger's memory storage and query service. */
function jaegerConfig(ports: number[]) {
  const { grpc, http, query, queryGrpc, health } = jaegerPorts(ports);
  // No processors: a span is in storage by the time its export is answered.
  return {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query', 'healthcheckv2'],
      pipelines: {
        traces: { receivers: ['otlp'], processors: [], exporters: ['jaeger_storage_exporter'] },
      },
      // The collector's own metrics would take a fixed port (8888).
      telemetry: { metrics: { level: 'none' }, logs: { level: 'info' } },
    },
    extensions: {
      jaeger_storage: { backends: { memstore: { memory: { max_traces: 100_000 } } } },
      jaeger_query: {
        storage: { traces: 'memstore' },
        http: { endpoint: at(query) },
        grpc: { endpoint: at(queryGrpc) },
      },
      healthcheckv2: { use_v2: true, http: { endpoint: at(health) } },
    },
    receivers: {
      otlp: { protocols: { grpc: { endpoint: at(grpc) }, http: { endpoint: at(http) } } },
    },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memstore' } },
  };
}

/**
 * A real Jaeger v2 (an OpenTelemetry Collector with Jaeger's in-memory storage and query
 * service; built from the Go module proxy on first use, then cached) receiving OTLP over
 * HTTP and gRPC, every port on 127.0.0.1.
 */
export async function startJaeger(options: JaegerOptions = {}): Promise<RunningJaeger> {
  const binary = await ensureJaeger(options.progress);
  const service = await startService({
    name: 'jaeger',
    binary,
    ports: 5,
    setUp: async (dir, ports) => {
      const configFile = join(dir, 'jaeger.yaml');
      await writeFile(configFile, `${JSON.stringify(jaegerConfig(ports), null, 2)}\n`);
      return [`--config=${configFile}`];
    },
    // Healthy once every component has started, receivers last.
    ready: (ports) => answers(`http://${at(jaegerPorts(ports).health)}/status`),
  });
  const { grpc, http, query } = jaegerPorts(service.ports);
  const queryUrl = `http://${at(query)}`;
  const otlpHttpUrl = `http://${at(http)}`;
  const otlpGrpcUrl = `http://${at(grpc)}`;

  /** The spans of a query of the v3 API; none when Jaeger finds none (404). */
  const spansOf = async (path: string): Promise<TraceSpan[]> => {
    const res = await fetch(`${queryUrl}/api/v3/${path}`);
    if (res.status === 404) {
      await res.body?.cancel();
      return [];
    }
    if (!res.ok) throw new Error(`Jaeger's query service answered ${res.status}: ${await res.text()}`);
    return otlpSpans(((await res.json()) as { result?: OtlpTraces }).result ?? {});
  };

  // Raw: as received. Otherwise Jaeger's adjusters rewrite spans (a clock-skew warning added as
  // an attribute), and in its memory storage the rewrite stays for later reads too.
  const trace = (traceId: string) => spansOf(`traces/${encodeURIComponent(traceId)}?raw_traces=true`);

  const findTraces = async (serviceName: string, since = new Date(Date.now() - 86_400_000)) => {
    const query = new URLSearchParams({
      'query.service_name': serviceName,
      'query.start_time_min': since.toISOString(),
      'query.start_time_max': new Date(Date.now() + 3_600_000).toISOString(),
      'query.num_traces': '1000',
      'query.raw_traces': 'true',
    });
    const byTrace = Map.groupBy(await spansOf(`traces?${query}`), (s) => s.traceId);
    return [...byTrace.values()];
  };

  const waitForTrace = async (traceId: string, wait: WaitForTraceOptions = {}): Promise<TraceSpan[]> => {
    const want = wait.spans ?? 1;
    const deadline = Date.now() + (wait.timeoutMs ?? 30_000);
    for (;;) {
      service.assertRunning();
      const spans = await trace(traceId);
      if (spans.length >= want) return spans;
      if (Date.now() > deadline)
        throw new Error(`Jaeger holds ${spans.length} span(s) of trace ${traceId}, not the ${want} awaited`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  return {
    version: JAEGER_VERSION,
    otlpHttpUrl,
    otlpGrpcUrl,
    queryUrl,
    pid: service.pid,
    logFile: service.logFile,
    readyMs: service.readyMs,
    otelEnv: (protocol = 'http/protobuf') => ({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: protocol === 'grpc' ? otlpGrpcUrl : `${otlpHttpUrl}/v1/traces`,
    }),
    trace,
    findTraces,
    waitForTrace,
    stop: service.stop,
    [Symbol.asyncDispose]: service.stop,
  };
}
