// What the environment (the standard OTEL_* variables), the command line (`--metrics-port`) and
// the experiment's tracing control (controls/tracing.ts) ask of traces and metrics (D130). Nothing
// asked, nothing is loaded: the SDK (the package @chaoskit/telemetry, D164) is imported only when
// something is on. Each OTLP endpoint is resolved here as the specification says, so that the
// endpoint a message names is the one the exporter is given.

import { InvalidArgumentError } from 'commander';
import { Refusal } from '../output/errors.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json', 'grpc'];

/** What the experiment's tracing control asks; what it does not give comes from the environment. */
export interface OtlpChoice {
  protocol: OtlpProtocol;
  /** The exporter's endpoint, when the tracing control gives one (else the environment's). */
  url?: string;
  headers?: Record<string, string>;
}

/** Where one signal goes over OTLP, resolved; `by` is what turned it on. */
export interface OtlpTarget extends OtlpChoice {
  url: string;
  by: string;
}

export interface TelemetryChoice {
  traces?: OtlpTarget;
  metrics?: {
    /** Pushed over OTLP every `intervalMs` and when the process ends. */
    push?: OtlpTarget & { intervalMs: number };
    /** Served for Prometheus to scrape, on `/metrics`. */
    serve?: { port: number; host?: string; by: string };
  };
}

type Signal = 'TRACES' | 'METRICS';

const set = (env: NodeJS.ProcessEnv, name: string) => (env[name] ?? '').trim() !== '';

function protocolOf(env: NodeJS.ProcessEnv, signal: Signal): OtlpProtocol {
  const name = set(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = (env[name] ?? '').trim() || 'http/protobuf';
  if (!PROTOCOLS.includes(value))
    throw new Refusal(`${name} is '${value}': chaoskit sends OTLP as ${PROTOCOLS.join(', ')}`);
  return value as OtlpProtocol;
}

/** An endpoint as a message may show it: without credentials and query (a token may be there). */
export function shownEndpoint(value: string): string {
  try {
    const url = new URL(value);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.href;
  } catch {
    return value;
  }
}

/** An endpoint's value, refused unless it is an http(s) URL (the exporters fell back to localhost). */
function urlIn(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new Refusal(`${name} is '${shownEndpoint(value)}': an OTLP endpoint is an http:// or https:// URL`);
  return value.trim();
}

/**
 * The specification's endpoint of a signal: its own variable as it is; else the general one,
 * its path followed by `/v1/traces` or `/v1/metrics` over HTTP; else localhost (4318 over HTTP,
 * 4317 gRPC).
 */
function endpointOf(env: NodeJS.ProcessEnv, signal: Signal, protocol: OtlpProtocol): string {
  const own = `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`;
  if (set(env, own)) return urlIn(own, env[own]!);
  const base = set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
    ? urlIn('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT!)
    : protocol === 'grpc'
      ? 'http://localhost:4317'
      : 'http://localhost:4318';
  if (protocol === 'grpc') return base;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/${signal.toLowerCase()}`;
  return url.href;
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

/** The endpoint variable that turns a signal on, if one is set. */
const endpointSet = (env: NodeJS.ProcessEnv, signal: Signal) =>
  [`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`, 'OTEL_EXPORTER_OTLP_ENDPOINT'].find((name) => set(env, name));

function tracesTarget(
  env: NodeJS.ProcessEnv,
  disabled: boolean,
  tracing: OtlpChoice | undefined,
): OtlpTarget | undefined {
  const exporters = exportersOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'none']);
  const by = exporters
    ? exporters.includes('otlp')
      ? 'OTEL_TRACES_EXPORTER=otlp'
      : undefined
    : (endpointSet(env, 'TRACES') ?? (tracing ? "the experiment's tracing control" : undefined));
  if (!by || disabled) return undefined;
  // The experiment's control, when it names its own endpoint; else the environment's.
  if (tracing?.url)
    return { ...tracing, url: urlIn("the tracing control's collector_endpoint", tracing.url), by };
  const protocol = protocolOf(env, 'TRACES');
  return { ...tracing, protocol, url: endpointOf(env, 'TRACES', protocol), by };
}

function metricsChoice(
  env: NodeJS.ProcessEnv,
  disabled: boolean,
  metricsPort: number | undefined,
): TelemetryChoice['metrics'] {
  const exporters = exportersOf(env, 'OTEL_METRICS_EXPORTER', ['otlp', 'prometheus', 'none']);
  const interval = (env.OTEL_METRIC_EXPORT_INTERVAL ?? '').trim();
  if (interval && !(Number(interval) > 0))
    throw new Refusal(`OTEL_METRIC_EXPORT_INTERVAL is '${interval}': milliseconds, a number above 0`);
  const pushBy = exporters
    ? exporters.includes('otlp')
      ? 'OTEL_METRICS_EXPORTER=otlp'
      : undefined
    : endpointSet(env, 'METRICS');
  const protocol = pushBy && !disabled ? protocolOf(env, 'METRICS') : undefined;
  const push = protocol && {
    protocol,
    url: endpointOf(env, 'METRICS', protocol),
    intervalMs: interval ? Number(interval) : 60_000,
    by: pushBy!,
  };
  const host = set(env, 'OTEL_EXPORTER_PROMETHEUS_HOST')
    ? { host: env.OTEL_EXPORTER_PROMETHEUS_HOST!.trim() }
    : {};
  const serve =
    metricsPort !== undefined
      ? { port: metricsPort, ...host, by: '--metrics-port' }
      : !disabled && exporters?.includes('prometheus')
        ? {
            port: set(env, 'OTEL_EXPORTER_PROMETHEUS_PORT')
              ? port(env.OTEL_EXPORTER_PROMETHEUS_PORT!, 'OTEL_EXPORTER_PROMETHEUS_PORT')
              : 9464,
            ...host,
            by: 'OTEL_METRICS_EXPORTER=prometheus',
          }
        : undefined;
  if (!push && !serve) return undefined;
  return { ...(push ? { push } : {}), ...(serve ? { serve } : {}) };
}

/**
 * What to turn on. Traces: OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint set
 * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) with OTEL_TRACES_EXPORTER not
 * `none`, or the experiment's tracing control. Metrics: pushed for OTEL_METRICS_EXPORTER=otlp or
 * an OTLP metrics endpoint set; served for OTEL_METRICS_EXPORTER=prometheus
 * (OTEL_EXPORTER_PROMETHEUS_PORT, default 9464) or `--metrics-port`, on
 * OTEL_EXPORTER_PROMETHEUS_HOST (default localhost). OTEL_SDK_DISABLED=true turns off all but
 * `--metrics-port`. A value chaoskit cannot honour is refused, naming the variable.
 */
export function telemetryChoice(
  env: NodeJS.ProcessEnv,
  options: { metricsPort?: number; tracing?: OtlpChoice } = {},
): TelemetryChoice {
  const disabled = (env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true';
  const traces = tracesTarget(env, disabled, options.tracing);
  const metrics = metricsChoice(env, disabled, options.metricsPort);
  return { ...(traces ? { traces } : {}), ...(metrics ? { metrics } : {}) };
}

/** What turned telemetry on, for a message: `OTEL_TRACES_EXPORTER=otlp, --metrics-port`. */
export function askedBy(choice: TelemetryChoice): string {
  const by = [choice.traces?.by, choice.metrics?.push?.by, choice.metrics?.serve?.by];
  return [...new Set(by.filter(Boolean))].join(', ');
}

/** `--metrics-port <n>`, for commander (a usage error). */
export function parseMetricsPort(text: string): number {
  try {
    return port(text, '--metrics-port');
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
