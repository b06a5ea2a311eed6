import { redact } from './redact.js';

// Errors are recognised by a brand and a `code`, not by `instanceof`: two copies of
// @chaoskit/core (independently versioned packages) may be loaded side by side.
const BRAND = Symbol.for('chaoskit.error');

export type ApiErrorCode =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'Invalid'
  | 'TooManyRequests'
  | 'Unavailable'
  | 'Timeout'
  | 'ApiError';

export type ErrorCode =
  | 'ActivityFailed'
  | 'InvalidArgument'
  | 'InvalidExperiment'
  | 'ConfigurationError'
  | ApiErrorCode;

export class ChaosError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(redact(message), options);
    this.code = code;
    this.name = code;
  }
}

/** An activity did not do or find what it should: a probe's condition, a timeout, a refusal. */
export class ActivityFailed extends ChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ActivityFailed', message, options);
  }
}

/** No usable credentials or cluster configuration. */
export class ConfigurationError extends ChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ConfigurationError', message, options);
  }
}

export interface InvalidArgumentDetails {
  /** `module.func`, e.g. `chaoscluster.pod.actions.terminate_pods`. */
  activity: string;
  /** The argument's experiment name, e.g. `qty`; absent for whole-call problems. */
  argument?: string;
  /** What is accepted, in words. */
  accepted: string;
  /** What was given, already rendered (never a secret: values pass through redact). */
  received?: string;
}

/** Bad input, refused before any request reaches the cluster. */
export class InvalidArgument extends ChaosError {
  readonly activity: string;
  readonly argument: string | undefined;
  readonly accepted: string;
  readonly received: string | undefined;

  constructor(details: InvalidArgumentDetails) {
    const where = details.argument ? `argument '${details.argument}'` : 'arguments';
    const got = details.received === undefined ? '' : ` (got ${details.received})`;
    super('InvalidArgument', `${details.activity}: ${where}: expected ${details.accepted}${got}`);
    this.activity = details.activity;
    this.argument = details.argument;
    this.accepted = details.accepted;
    this.received = details.received;
  }
}

export interface ApiRequestContext {
  verb?: string;
  resource?: string;
  name?: string;
  namespace?: string;
}

/** A Kubernetes API error, classified from the server's Status body. */
export class ApiError extends ChaosError {
  declare readonly code: ApiErrorCode;
  readonly status: number;
  readonly reason: string;
  readonly serverMessage: string;
  readonly body: unknown;

  constructor(
    code: ApiErrorCode,
    fields: { status: number; reason: string; serverMessage: string; body: unknown },
    context: ApiRequestContext = {},
  ) {
    super(code, describeApiError(code, fields, context));
    this.status = fields.status;
    this.reason = fields.reason;
    this.serverMessage = redact(fields.serverMessage);
    this.body = fields.body;
  }
}

function describeApiError(
  code: ApiErrorCode,
  fields: { status: number; serverMessage: string },
  context: ApiRequestContext,
): string {
  const target = [
    context.resource,
    context.name ? `'${context.name}'` : undefined,
    context.namespace ? `in namespace '${context.namespace}'` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const action = context.verb ? `${context.verb} ${target}`.trim() : target;
  const prefix = action ? `${action}: ` : '';
  const detail = fields.serverMessage || `HTTP ${fields.status}`;
  return `${prefix}${code} (${fields.status}): ${detail}`;
}

export function isChaosError(error: unknown, code?: ErrorCode): error is ChaosError {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as Record<symbol, unknown>)[BRAND] !== true) return false;
  return code === undefined || (error as ChaosError).code === code;
}

export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return (
    isChaosError(error) &&
    typeof (error as ApiError).status === 'number' &&
    (code === undefined || error.code === code)
  );
}

const BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Conflict',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'ApiError',
  502: 'Unavailable',
  503: 'Unavailable',
  504: 'Timeout',
};

const BY_REASON: Record<string, ApiErrorCode> = {
  NotFound: 'NotFound',
  AlreadyExists: 'Conflict',
  Conflict: 'Conflict',
  Forbidden: 'Forbidden',
  Unauthorized: 'Unauthorized',
  Invalid: 'Invalid',
  TooManyRequests: 'TooManyRequests',
  ServiceUnavailable: 'Unavailable',
  Timeout: 'Timeout',
  ServerTimeout: 'Timeout',
  BadRequest: 'BadRequest',
};

/**
 * Turns what @kubernetes/client-node throws (an ApiException with `code` and a raw `body`
 * string holding a Kubernetes Status) into an ApiError. Anything else is returned unchanged.
 */
export function toApiError(error: unknown, context: ApiRequestContext = {}): unknown {
  if (isChaosError(error)) return error;
  if (typeof error !== 'object' || error === null) return error;
  const e = error as { code?: unknown; statusCode?: unknown; body?: unknown };
  const status =
    typeof e.code === 'number' ? e.code : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status === undefined || status < 400) return error;
  const body = parseBody(e.body);
  const reason = typeof body?.reason === 'string' ? body.reason : '';
  const serverMessage =
    typeof body?.message === 'string' ? body.message : typeof e.body === 'string' ? e.body : '';
  const code = BY_REASON[reason] ?? BY_STATUS[status] ?? (status >= 500 ? 'Unavailable' : 'ApiError');
  return new ApiError(code, { status, reason, serverMessage, body: body ?? e.body }, context);
}

function parseBody(body: unknown): Record<string, unknown> | undefined {
  if (body && typeof body === 'object') return body as Record<string, unknown>;
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
