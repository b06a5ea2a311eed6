// Traces and metrics of a run (D130), off unless asked (config.ts): the SDK, the package
// @chaoskit/telemetry (D164), is imported only then, so that a run without them loads nothing of
// it. Spans and meters are made through @opentelemetry/api, which does nothing until an SDK is
// registered.

import { redact } from '@chaoskit/core/runner';
import { type Attributes, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { Refusal } from '../output/errors.js';
import type { Reporter } from '../output/log.js';
import { terminalValue } from '../output/terminal.js';
import { isMissingPackage } from '../package/missing-package.js';
import { RUNNER_VERSION } from '../package/version.js';
import { askedBy, type OtlpChoice, shownEndpoint, type TelemetryChoice, telemetryChoice } from './config.js';

export const RUNNER_SCOPE = '@chaoskit/runner';
// Asked at each use, not once at load: the SDK registers itself through another copy of the API
// (@chaoskit/telemetry's, beside the bundle), which a tracer taken before would never see.
const tracer = () => trace.getTracer(RUNNER_SCOPE, RUNNER_VERSION);

/** Runs `fn` in a span of its own, the parent of what it does; a throw marks the span failed. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
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

/** What was asked for: `traces and metrics`. */
const signals = (choice: TelemetryChoice) =>
  [choice.traces && 'traces', choice.metrics && 'metrics'].filter(Boolean).join(' and ');

/**
 * The SDK and its exporters, in a package of their own (D164): an install of the runner alone
 * carries none of them. Missing, the run is refused, as a tracing control whose exporter is
 * missing is (D132): traces someone relies on would silently be missing.
 */
async function loadTelemetry(choice: TelemetryChoice): Promise<typeof import('@chaoskit/telemetry')> {
  try {
    return await import('@chaoskit/telemetry');
  } catch (err) {
    if (!isMissingPackage(err, ['@chaoskit/telemetry'])) throw err;
    const by = askedBy(choice);
    const without = by === '--metrics-port' ? '' : '; OTEL_SDK_DISABLED=true runs without them';
    throw new Refusal(
      `${signals(choice)} (asked for by ${by}) need the package @chaoskit/telemetry, which is not installed beside @chaoskit/runner: npm install @chaoskit/telemetry (npx: npx -p @chaoskit/runner -p @chaoskit/telemetry chaoskit …)${without}`,
    );
  }
}

export interface TelemetryOptions {
  env?: NodeJS.ProcessEnv;
  /** `--metrics-port`: serve `/metrics` there while the command runs. */
  metricsPort?: number;
  /** What the experiment's tracing control asks (controls/tracing.ts). */
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
  const { startTelemetry } = await loadTelemetry(choice);
  const { reporter } = options;
  const say = (line: string) => reporter?.warn(`telemetry: ${terminalValue(line)}`);
  const sdk = await startTelemetry(choice, {
    serviceVersion: RUNNER_VERSION,
    // One line: what was not sent, where (without credentials or query), over what, and why.
    failed: ({ signal, target, cause }) =>
      say(`${signal} not sent to ${shownEndpoint(target.url)} (OTLP ${target.protocol}): ${cause}`),
    report: say,
  }).catch((err: unknown) => {
    // A port taken, gRPC's exporters missing: nothing has run.
    throw new Refusal((err as Error).message);
  });
  if (sdk.metricsUrl) reporter?.info(`Metrics served on ${sdk.metricsUrl}`);
  try {
    return await inSpan(name, {}, () => fn());
  } finally {
    await sdk.shutdown();
  }
}
