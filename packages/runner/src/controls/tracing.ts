// Chaos Toolkit's tracing controls (chaostoolkit-opentracing), honoured natively (D132): the
// Python module is not loaded; what it would configure is mapped onto the runner's own traces.
// - `chaostracing.oltp`: OTLP, configured by the OTEL_* environment (as the Python control is);
//   its `trace_*` arguments instrument Python libraries, and mean nothing here.
// - `chaostracing.control` with provider `opentelemetry` (its `arguments`, else the
//   configuration's `tracing_*` keys) and exporter `oltp-grpc` or `oltp-http`: sent over that
//   protocol to `collector_endpoint`, with `collector_headers`; provider `noop`: nothing.
// What chaoskit cannot send (Jaeger's own protocols, a cloud vendor's exporter) is refused.

import { isObject } from '../experiment/raw.js';
import type { OtlpChoice } from '../telemetry/config.js';
import type { DeclaredControl } from './declared.js';

type Json = Record<string, unknown>;

export const TRACING_MODULES: readonly string[] = ['chaostracing.oltp', 'chaostracing.control'];

export const isTracingControl = (control: DeclaredControl): boolean =>
  control.provider?.type === 'python' && TRACING_MODULES.includes(String(control.provider.module));

const EXPORTERS: Record<string, OtlpChoice['protocol']> = {
  'oltp-grpc': 'grpc',
  'oltp-http': 'http/protobuf',
};
const SEND_OTLP =
  'Jaeger and the OpenTelemetry Collector take OTLP: use chaostracing.oltp with OTEL_EXPORTER_OTLP_ENDPOINT, or provider opentelemetry with exporter oltp-grpc or oltp-http';

/** One control's traces, or why chaoskit cannot send what it asks. */
function choiceOf(
  control: DeclaredControl,
  configuration: Json,
  env: NodeJS.ProcessEnv,
): { tracing?: OtlpChoice; problem?: string } {
  const label = `tracing control '${control.name}'`;
  const args = isObject(control.provider?.arguments) ? control.provider.arguments : {};
  const setting = (argument: string, key: string) => args[argument] ?? configuration[key];
  if (control.provider?.module === 'chaostracing.oltp') {
    const vendor = configuration.otel_vendor ?? env.OTEL_VENDOR;
    if (vendor !== undefined && vendor !== '')
      return {
        problem: `${label}: otel_vendor ${JSON.stringify(vendor)} needs a vendor's exporter, which chaoskit does not have; send OTLP to a collector that forwards to it (OTEL_EXPORTER_OTLP_ENDPOINT)`,
      };
    return { tracing: { protocol: 'http/protobuf' } };
  }
  const provider = setting('provider', 'tracing_provider') ?? 'noop';
  if (provider === 'noop') return {};
  if (provider !== 'opentelemetry')
    return {
      problem: `${label}: provider ${JSON.stringify(provider)} is not one chaoskit sends to. ${SEND_OTLP}`,
    };
  const exporter = setting('exporter', 'tracing_opentelemetry_exporter');
  const protocol = EXPORTERS[String(exporter)];
  if (!protocol)
    return {
      problem: `${label}: exporter ${JSON.stringify(exporter ?? null)} is not one chaoskit sends with (oltp-grpc, oltp-http). ${SEND_OTLP}`,
    };
  const url = setting('collector_endpoint', 'tracing_opentelemetry_collector_endpoint');
  const headers = setting('collector_headers', 'tracing_opentelemetry_collector_headers');
  if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\/./i.test(url)))
    return { problem: `${label}: collector_endpoint is an http:// or https:// URL` };
  if (
    headers !== undefined &&
    headers !== null &&
    !(isObject(headers) && Object.values(headers).every((v) => typeof v === 'string'))
  )
    return { problem: `${label}: collector_headers is a mapping of header names to strings` };
  return {
    tracing: {
      protocol,
      ...(url ? { url } : {}),
      ...(isObject(headers) ? { headers: headers as Record<string, string> } : {}),
    },
  };
}

/**
 * The traces the experiment's tracing controls ask for (its top-level `controls`, where Chaos
 * Toolkit configures them), but those skipped by name; the first that sends wins.
 */
export function experimentTracing(
  controls: readonly DeclaredControl[],
  configuration: Json,
  env: NodeJS.ProcessEnv,
): { tracing?: OtlpChoice; problems: string[] } {
  const problems: string[] = [];
  let tracing: OtlpChoice | undefined;
  for (const control of controls.filter(isTracingControl)) {
    const choice = choiceOf(control, configuration, env);
    if (choice.problem) problems.push(choice.problem);
    tracing ??= choice.tracing;
  }
  return { ...(tracing ? { tracing } : {}), problems };
}
