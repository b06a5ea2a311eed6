// Traces and metrics for the `chaoskit` command (D130, D131, D164): @chaoskit/runner imports this
// package when the OTEL_* environment, `--metrics-port` or an experiment's tracing control asks
// for them, so that an install without it carries none of OpenTelemetry's SDK and exporters.

export type { OtlpProtocol, OtlpTarget, TelemetryChoice } from './choice.js';
export type { ExportFailure } from './exporters/reporting.js';
export { type Started, type StartOptions, startTelemetry } from './start.js';
