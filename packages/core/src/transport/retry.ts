// The one retry policy of every request to a cluster (connection.ts applies it): what is worth
// another attempt, how long to wait before it, and for how long in all.

import { errorCode } from '../errors/errors.js';

/** Retries of one request go on for at most this long by default. */
export const RETRY_BUDGET_MS = 60_000;

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
/** Failures of a connection that was never made: the request cannot have been applied. */
export const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // An HTTP/2 session that was closing (GOAWAY) or gone: the stream was never opened.
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_INVALID_SESSION',
]);
const RETRY_CODES = new Set([
  ...NEVER_SENT,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  // A stream reset, or cancelled as its session closed (an apiserver restarting).
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_STREAM_CANCEL',
  'ERR_HTTP2_SESSION_ERROR',
]);

/** Whether a failure is worth another attempt: 429, 5xx (an ApiError or a status) or a dropped connection. */
export function isRetryable(err: unknown): boolean {
  const e = err as { status?: unknown; code?: unknown };
  const status = typeof e.status === 'number' ? e.status : typeof e.code === 'number' ? e.code : undefined;
  if (status !== undefined) return RETRY_STATUS.has(status);
  return RETRY_CODES.has(errorCode(err) ?? '');
}

/** Jittered exponential backoff: 100 ms doubling to at most 5 s, ±50 %. */
export function backoffMs(attempt: number): number {
  return Math.min(100 * 2 ** (attempt - 1), 5000) * (0.5 + Math.random());
}

/** A PodDisruptionBudget refusing an eviction (429 too): an answer, not an overload. */
export function budgetRefusal(res: { status: number; body: string }): boolean {
  return res.status === 429 && res.body.includes('"DisruptionBudget"');
}

/** The server's Retry-After of a 429, in ms (at most 10 s); none for any other answer. */
export function retryAfterMs(res: { status: number; headers: Record<string, unknown> }): number | undefined {
  const seconds = Number(res.headers['retry-after']);
  return res.status === 429 && seconds > 0 ? Math.min(seconds * 1000, 10_000) : undefined;
}
