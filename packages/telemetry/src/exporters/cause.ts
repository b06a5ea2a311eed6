// Why an export failed, in words a user can act on: the HTTP status and the first line of the
// answer (Prometheus says there that its OTLP receiver is off), the network error (ECONNREFUSED,
// ENOTFOUND), or the gRPC status. The SDK's errors carry these, under class names of its own.

const ANSWER_SHOWN = 200;

/** One line, without the `Error: ` that nested messages repeat. */
const oneLine = (text: string) =>
  text
    .replace(/\bError: /g, '')
    .replace(/\s*Resolution note:\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The first line of what the endpoint answered, cut short. */
function answered(data: unknown): string {
  if (typeof data !== 'string') return '';
  const first = data.trim().split('\n')[0]?.trim() ?? '';
  return first.length > ANSWER_SHOWN ? `${first.slice(0, ANSWER_SHOWN)}…` : first;
}

/** The cause of a failed export, from the error its exporter gave (undefined: none given). */
export function causeOf(error: unknown): string {
  if (error === undefined || error === null) return 'the exporter gave no reason';
  const { name, code, message, data, details } = error as Record<string, unknown>;
  const text = oneLine(typeof message === 'string' ? message : String(error));
  // An HTTP answer outside 2xx that is not retried (404, 400, 415…): its status and body.
  if (name === 'OTLPExporterError' && typeof code === 'number') {
    const body = answered(data);
    return `HTTP ${code}${text ? ` ${text}` : ''}${body ? `: ${body}` : ''}`;
  }
  // The OTLP exporters retry 429, 502, 503 and 504 for up to OTEL_EXPORTER_OTLP_TIMEOUT, then
  // give up with these words and no status.
  if (text === 'Export failed with retryable status')
    return 'the endpoint answered 429, 502, 503 or 504 until the exporter gave up';
  if (text === 'Request timed out') return 'no answer within OTEL_EXPORTER_OTLP_TIMEOUT (default 10 s)';
  // A gRPC status: "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED …".
  if (typeof code === 'number' && typeof details === 'string') return `gRPC ${text}`;
  return text;
}
