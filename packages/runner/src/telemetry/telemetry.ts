// Traces and metrics of a run (D130), off unless asked (config.ts): the SDK is imported only
// then, so that a run without them loads nothing of it. Spans and meters are made through
// @opentelemetry/api, which does nothing until an SDK is registered.

import { redact } from '@chaoskit/core/runner';
import { type Attributes, DiagLogLevel, diag, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Reporter } from '../log.js';
import { RUNNER_VERSION } from '../version.js';
import { type OtlpChoice, telemetryChoice } from './config.js';

export const RUNNER_SCOPE = '@chaoskit/runner';
const tracer = trace.getTracer(RUNNER_SCOPE, RUNNER_VERSION);

/** Runs `fn` in a span of its own, the parent of what it does; a throw marks the span failed. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: redact(String((err as Error).message ?? err)) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The SDK reports some errors as the JSON of the Error: its message alone. */
function plain(message: string): string {
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {}
  return message;
}

export interface TelemetryOptions {
  env?: NodeJS.ProcessEnv;
  /** `--metrics-port`: serve `/metrics` there while the command runs. */
  metricsPort?: number;
  /** What the experiment's tracing control asks (tracing-control.ts). */
  tracing?: OtlpChoice;
  /** Where the exporters' complaints go (a collector that cannot be reached). */
  reporter?: Reporter;
}

/**
 * Runs a command's work (`fn`) as the root span `name`, with traces and metrics on as the
 * environment asks; at the end, what is left is sent (the spans, a last push of the metrics).
 */
export async function withTelemetry<T>(
  name: string,
  options: TelemetryOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const choice = telemetryChoice(options.env ?? process.env, options);
  if (!choice.traces && !choice.metrics) return fn();
  const { reporter } = options;
  if (reporter) {
    const say = (message: string) => reporter.warn(`telemetry: ${redact(plain(message))}`);
    diag.setLogger(
      {
        error: say,
        warn: say,
        info: () => {},
        debug: () => {},
        verbose: () => {},
      },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
  }
  const { startSdk } = await import('./sdk.js');
  const sdk = await startSdk(choice);
  if (sdk.metricsAddress) reporter?.info(`Metrics served on http://${sdk.metricsAddress}/metrics`);
  try {
    return await inSpan(name, {}, () => fn());
  } finally {
    await sdk.shutdown();
  }
}
