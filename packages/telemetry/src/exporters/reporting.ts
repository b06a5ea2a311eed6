// A failed export said once, with what failed and why: the runner words it as one line that
// names the signal, the endpoint and the cause (`traces not sent to
// http://collector:4318/v1/traces (OTLP http/protobuf): connect ECONNREFUSED 10.0.0.7:4318`).
// Left to the SDK, a span export failing at the run's end was silent (the processor's shutdown
// rejects, and nothing reads it), a periodic one was the JSON of an Error, and a warning of the
// OTLP delegate read `OTLPExportDelegate` and nothing more.

import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { OtlpTarget } from '../choice.js';
import { causeOf } from './cause.js';

/** An export that failed: its signal, where it went, and why (cause.ts). */
export interface ExportFailure {
  signal: 'traces' | 'metrics';
  target: OtlpTarget;
  cause: string;
}

interface Exporting<T> {
  export(items: T, done: (result: ExportResult) => void): void;
}

/**
 * Makes `exporter` call `failed` when an export fails — once until the cause changes or an
 * export succeeds, so that a collector down for a long run is one line, not one a minute. The
 * SDK is then told the export is dealt with: its own report of it would be a second line saying
 * less. Nothing is retried on a failure either way (the exporter's transport has retried).
 */
export function reportingFailures<T, E extends Exporting<T>>(
  exporter: E,
  what: Omit<ExportFailure, 'cause'>,
  failed: (failure: ExportFailure) => void,
): E {
  const send = exporter.export.bind(exporter);
  let said: string | undefined;
  // Replaced on this instance only: its other methods (the metric exporter's temporality and
  // aggregation choices, shutdown) stay the exporter's own.
  exporter.export = (items, done) =>
    send(items, (result) => {
      if (result.code === ExportResultCode.SUCCESS) said = undefined;
      else {
        const cause = causeOf(result.error);
        if (cause !== said) failed({ ...what, cause });
        said = cause;
      }
      done({ code: ExportResultCode.SUCCESS });
    });
  return exporter;
}
