// What the environment (the standard OTEL_* variables), the command line (`--metrics-port`) and
// the experiment's tracing control (tracing-control.ts) ask of traces and metrics (D130). Nothing
// asked, nothing is loaded: the SDK (sdk.ts) is imported only when something is on.

import { InvalidArgumentError } from 'commander';
import { Refusal } from '../errors.js';

export type OtlpProtocol = 'http/protobuf' | 'grpc';
const PROTOCOLS: readonly string[] = ['http/protobuf', 'grpc'];

/** Where an OTLP exporter sends; what it is not given, it reads from OTEL_EXPORTER_OTLP_* itself. */
export interface OtlpChoice {
  protocol: OtlpProtocol;
  /** The exporter's endpoint, when the tracing control gives one (else the environment's). */
  url?: string;
  headers?: Record<string, string>;
}

export interface TelemetryChoice {
  traces?: OtlpChoice;
  metrics?: {
    /** Pushed over OTLP every `intervalMs` and when the process ends. */
    push?: OtlpChoice & { intervalMs: number };
    /** Served for Prometheus to scrape, on `/metrics`. */
    serve?: { port: number; host?: string };
  };
}

const set = (env: NodeJS.ProcessEnv, name: string) => (env[name] ?? '').trim() !== '';

function protocolOf(env: NodeJS.ProcessEnv, signal: 'TRACES' | 'METRICS'): OtlpProtocol {
  const name = set(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = (env[name] ?? '').trim() || 'http/protobuf';
  if (!PROTOCOLS.includes(value))
    throw new Refusal(`${name} is '${value}': chaoskit sends OTLP as http/protobuf or grpc`);
  return value as OtlpProtocol;
}

/** The exporters a `OTEL_*_EXPORTER` list names (`otlp,prometheus`), checked against those accepted. */
function exportersOf(
  env: NodeJS.ProcessEnv,
  name: string,
  accepted: readonly string[],
): string[] | undefined {
  if (!set(env, name)) return undefined;
  const names = env[name]!.split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const n of names)
    if (!accepted.includes(n))
      throw new Refusal(`${name} names '${n}': chaoskit takes ${accepted.join(', ')}`);
  return names.filter((n) => n !== 'none');
}

function port(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 65_535)
    throw new Refusal(`${what} is '${text}': a port, from 1 to 65535`);
  return n;
}

/**
 * What to turn on. Traces: OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint set
 * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) with OTEL_TRACES_EXPORTER not
 * `none`, or the experiment's tracing control. Metrics: pushed for OTEL_METRICS_EXPORTER=otlp or
 * an OTLP metrics endpoint set; served for OTEL_METRICS_EXPORTER=prometheus
 * (OTEL_EXPORTER_PROMETHEUS_PORT, default 9464, and _HOST) or `--metrics-port`.
 * OTEL_SDK_DISABLED=true turns off all but `--metrics-port`. A value chaoskit cannot honour is
 * refused, naming the variable.
 */
export function telemetryChoice(
  env: NodeJS.ProcessEnv,
  options: { metricsPort?: number; tracing?: OtlpChoice } = {},
): TelemetryChoice {
  const choice: TelemetryChoice = {};
  const disabled = (env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true';
  const endpoint = (signal: string) =>
    set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') || set(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);

  const traces = exportersOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'none']);
  if (!disabled && (traces ? traces.includes('otlp') : endpoint('TRACES') || options.tracing)) {
    // The environment's protocol, unless the experiment's control names its own endpoint.
    choice.traces = options.tracing?.url
      ? options.tracing
      : { ...options.tracing, protocol: protocolOf(env, 'TRACES') };
  }

  const metrics = exportersOf(env, 'OTEL_METRICS_EXPORTER', ['otlp', 'prometheus', 'none']);
  const push = !disabled && (metrics ? metrics.includes('otlp') : endpoint('METRICS'));
  const interval = (env.OTEL_METRIC_EXPORT_INTERVAL ?? '').trim();
  if (interval && !(Number(interval) > 0))
    throw new Refusal(`OTEL_METRIC_EXPORT_INTERVAL is '${interval}': milliseconds, a number above 0`);
  const serve =
    options.metricsPort !== undefined
      ? { port: options.metricsPort }
      : !disabled && metrics?.includes('prometheus')
        ? {
            port: set(env, 'OTEL_EXPORTER_PROMETHEUS_PORT')
              ? port(env.OTEL_EXPORTER_PROMETHEUS_PORT!, 'OTEL_EXPORTER_PROMETHEUS_PORT')
              : 9464,
            ...(set(env, 'OTEL_EXPORTER_PROMETHEUS_HOST')
              ? { host: env.OTEL_EXPORTER_PROMETHEUS_HOST!.trim() }
              : {}),
          }
        : undefined;
  if (push || serve)
    choice.metrics = {
      ...(push
        ? { push: { protocol: protocolOf(env, 'METRICS'), intervalMs: interval ? Number(interval) : 60_000 } }
        : {}),
      ...(serve ? { serve } : {}),
    };
  return choice;
}

/** `--metrics-port <n>`, for commander (a usage error). */
export function parseMetricsPort(text: string): number {
  try {
    return port(text, '--metrics-port');
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
