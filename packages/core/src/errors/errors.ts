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
  | 'Aborted'
  | 'InvalidArgument'
  | 'InvalidExperiment'
  | 'ConfigurationError'
  | 'Refused'
  | ApiErrorCode;

// An error's message as written, before masking: kept off the object's enumerable fields, so
// that no journal or log that serializes the error can carry it.
const UNMASKED = Symbol('chaoskit.unmasked');

export class ChaosError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(redact(message), options);
    this.code = code;
    this.name = code;
    Object.defineProperty(this, UNMASKED, { value: message });
  }
}

/**
 * The message of `err` as it was written, the values that select a cluster not yet masked:
 * only for the line that tells the user, on their own terminal, what to fix (D90) — which
 * masks credentials still (`redact(…, { showTargets: true })`).
 */
export function unmaskedMessage(err: unknown): string {
  const e = err as { [UNMASKED]?: string; message?: string } | undefined;
  return e?.[UNMASKED] ?? e?.message ?? String(err);
}

/** An activity did not do or find what it should: a probe's condition, a timeout, a refusal. */
export class ActivityFailed extends ChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ActivityFailed', message, options);
  }
}

/** What a call had done when it was aborted, in words: `{ terminated: ['web-1'], 'not terminated': […] }`. */
export type AbortProgress = Readonly<Record<string, readonly string[]>>;

/**
 * The one error of an abort, wherever it happens (a request, a wait, a pause, an activity):
 * named `AbortError` as the DOM's, its `cause` is the signal's reason. An activity's says what
 * it had done to each target when it stopped (D104).
 */
export class Aborted extends ChaosError {
  /** `module.func` of the activity that stopped, when an activity did. */
  readonly activity: string | undefined;
  readonly progress: AbortProgress;
  /** What the caller should know besides (a node that stays cordoned, how to undo it). */
  readonly note: string | undefined;

  constructor(
    reason: unknown,
    details: { activity?: string; progress?: Record<string, readonly string[]>; note?: string } = {},
  ) {
    const progress = Object.entries(details.progress ?? {}).filter(([, names]) => names.length > 0);
    const why = reasonText(reason);
    super(
      'Aborted',
      `${details.activity ?? 'the request'} was aborted${why ? ` (${why})` : ''}${
        progress.length > 0
          ? `: ${progress.map(([what, names]) => `${what} ${names.length}: ${names.join(', ')}`).join('; ')}`
          : ''
      }${details.note ? `. ${details.note}` : ''}`,
      { cause: reason },
    );
    this.name = 'AbortError';
    this.activity = details.activity;
    this.progress = Object.freeze(Object.fromEntries(progress));
    this.note = details.note;
  }

  /** An activity's, its call aborted while `err` was thrown: the report of an Aborted from within is kept. */
  static of(activity: string, reason: unknown, err?: unknown): Aborted {
    const inner = isChaosError(err, 'Aborted') ? (err as Aborted) : undefined;
    return new Aborted(reason, {
      activity,
      ...(inner ? { progress: { ...inner.progress }, ...(inner.note ? { note: inner.note } : {}) } : {}),
    });
  }
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.name === 'AbortError' ? '' : reason.message;
  return reason === undefined ? '' : String(reason);
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

/** One line for one bad argument: "activity: argument 'qty': expected … (got …)". */
function describeArgument(details: InvalidArgumentDetails): string {
  const where = details.argument ? `argument '${details.argument}'` : 'arguments';
  const got = details.received === undefined ? '' : ` (got ${details.received})`;
  return `${details.activity}: ${where}: expected ${details.accepted}${got}`;
}

/**
 * Bad input, refused before any request reaches the cluster. Its fields are the first problem;
 * `lines` has one per problem found in the same arguments (the message is those lines).
 */
export class InvalidArgument extends ChaosError {
  readonly activity: string;
  readonly argument: string | undefined;
  readonly accepted: string;
  readonly received: string | undefined;
  readonly lines: readonly string[];

  constructor(details: InvalidArgumentDetails, others: readonly InvalidArgumentDetails[] = []) {
    const lines = [details, ...others].map(describeArgument);
    super('InvalidArgument', lines.join('\n'));
    this.activity = details.activity;
    this.argument = details.argument;
    this.accepted = details.accepted;
    this.received = details.received;
    this.lines = lines;
  }
}

const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address (is the apiserver running?)',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
  DEPTH_ZERO_SELF_SIGNED_CERT:
    "TLS: the server's certificate is self-signed and not trusted (give its CA: CLUSTER_CA_CERT_FILE or the kubeconfig's certificate-authority)",
  SELF_SIGNED_CERT_IN_CHAIN:
    "TLS: the server's certificate chain ends in a CA that is not trusted (give that CA)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS: the server's certificate cannot be verified against the CA given",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS: the issuer of the server's certificate is not among the CAs given",
  CERT_HAS_EXPIRED: "TLS: the server's certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the server's certificate is not valid for this host name",
  UND_ERR_SOCKET: 'the connection was closed by the server',
};

/**
 * The code of the first error in a cause chain that has one (ECONNRESET, CERT_HAS_EXPIRED…);
 * chaoskit's own codes (a NetworkError's 'Unavailable') are looked through.
 */
export function errorCode(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'string' && !(e as Record<symbol, unknown>)[BRAND]) return e.code;
  }
  return undefined;
}

/**
 * The cluster could not be reached at all, or the connection broke: says which address and
 * why (refused, reset, timed out, a certificate problem), in words. The cause keeps Node's code.
 */
export class NetworkError extends ChaosError {
  readonly reason: string;
  constructor(
    address: string,
    cause: unknown,
    source?: string,
    /** How long it was tried, and whether the server had answered before (a restart). */
    tried?: { attempts: number; seconds: number; answeredBefore: boolean },
  ) {
    const code = errorCode(cause);
    const reason = (code && NETWORK_CAUSES[code]) ?? ((cause as Error)?.message || String(cause));
    // The address is masked but on the line that ends a command; where it came from says which
    // setting to check.
    const from = source ? `, given by ${source}` : '';
    const retried = tried
      ? tried.answeredBefore
        ? `; tried ${tried.attempts} times in ${tried.seconds.toFixed(1)} s, as long as a restart is given`
        : `; tried ${tried.attempts} times in ${tried.seconds.toFixed(1)} s: it never answered, so it is not waited for as a restarting server would be`
      : '';
    super(
      'Unavailable',
      `cannot reach the cluster at ${address}${from}: ${reason}${code ? ` (${code})` : ''}${retried}`,
      {
        cause,
      },
    );
    this.reason = reason;
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
  /** The server's Retry-After, in seconds, when it sent one (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ApiErrorCode,
    fields: {
      status: number;
      reason: string;
      serverMessage: string;
      body: unknown;
      retryAfterSeconds?: number;
    },
    context: ApiRequestContext = {},
  ) {
    super(code, describeApiError(code, fields, context));
    this.status = fields.status;
    this.reason = fields.reason;
    this.serverMessage = redact(fields.serverMessage);
    this.body = fields.body;
    this.retryAfterSeconds = fields.retryAfterSeconds;
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
  const e = error as {
    code?: unknown;
    statusCode?: unknown;
    body?: unknown;
    headers?: Record<string, unknown>;
  };
  const status =
    typeof e.code === 'number' ? e.code : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status === undefined || status < 400) return error;
  const body = parseBody(e.body);
  const reason = typeof body?.reason === 'string' ? body.reason : '';
  const serverMessage =
    typeof body?.message === 'string' ? body.message : typeof e.body === 'string' ? e.body : '';
  const code = BY_REASON[reason] ?? BY_STATUS[status] ?? (status >= 500 ? 'Unavailable' : 'ApiError');
  const retryAfter = Number(e.headers?.['retry-after']);
  return new ApiError(
    code,
    {
      status,
      reason,
      serverMessage,
      body: body ?? e.body,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    },
    context,
  );
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
