// What the crd activities raise when a request fails: an ActivityFailed that says what was
// asked and what went wrong — a missing definition, namespace or object told apart (with
// discovery), a stale version, an apply conflict naming the fields and their managers.

import { ActivityFailed, type ApiError, isApiError, type KubeClient } from '@chaoskit/core';
import { FIELD_MANAGER } from './custom-objects.js';
import { discover, explainMissingResource } from './discovery.js';
import { describeObject, type Target } from './target.js';

export type Verb = 'create' | 'delete' | 'get' | 'list' | 'patch' | 'replace';

/** One request of an activity, for its failure message. */
export interface Operation {
  verb: Verb;
  target: Target;
  name?: string;
  /** The two variants of the activity, for a hint when the wrong one was used. */
  variants: { namespaced: string; cluster: string };
}

function failedTo(op: Operation): string {
  return `failed to ${op.verb} ${describeObject(op.target, op.name)}`;
}

interface StatusBody {
  reason?: string;
  message?: string;
  details?: {
    name?: string;
    kind?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
  };
}

function statusOf(apiError: ApiError): StatusBody {
  const body = apiError.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as StatusBody) : {};
}

function serverSaid(apiError: ApiError): string {
  return `${apiError.code} (${apiError.status}): ${apiError.serverMessage || `HTTP ${apiError.status}`}`.trim();
}

async function notFound(apiError: ApiError, op: Operation, kube: KubeClient): Promise<ActivityFailed> {
  const status = statusOf(apiError);
  const prefix = failedTo(op);
  if (status.reason === 'NotFound' && status.details?.kind === 'namespaces') {
    return new ActivityFailed(
      `${prefix}: the namespace '${status.details.name ?? op.target.namespace}' does not exist`,
      { cause: apiError },
    );
  }
  if (status.reason === 'NotFound' && status.details?.name) {
    return new ActivityFailed(`${prefix}: it does not exist (${apiError.serverMessage})`, {
      cause: apiError,
    });
  }
  const discovery = await discover(kube, op.target);
  const explained = explainMissingResource(op, discovery);
  if (explained) return new ActivityFailed(`${prefix}: ${explained}`, { cause: apiError });
  const more =
    'error' in discovery
      ? ` (discovery of ${op.target.group}/${op.target.version} failed too: ${discovery.error})`
      : '';
  return new ActivityFailed(`${prefix}: ${serverSaid(apiError)}${more}`, { cause: apiError });
}

/**
 * Turns what a request threw into the error the activity raises: ActivityFailed saying what
 * went wrong for API errors (a missing definition, namespace or object is told apart),
 * anything else (no credentials, a dropped connection) unchanged.
 */
export async function failure(err: unknown, op: Operation, kube: KubeClient): Promise<Error> {
  if (!isApiError(err)) return err instanceof Error ? err : new Error(String(err));
  if (err.status === 404) return notFound(err, op, kube);
  return new ActivityFailed(`${failedTo(op)}: ${serverSaid(err)}`, { cause: err });
}

/** Whether the error is a 409 (an existing object, a stale version, an apply conflict). */
export function isConflict(err: unknown): err is ApiError {
  return isApiError(err) && err.status === 409;
}

/**
 * Whether the error is the 409 of an update whose resourceVersion is not the current one
 * (and not another conflict, such as a uid precondition).
 */
export function isStaleVersion(err: unknown): err is ApiError {
  return isConflict(err) && /has been modified/.test(err.serverMessage);
}

/** The field manager conflicts of a refused server-side apply: manager → fields. */
export function applyConflicts(err: unknown): Map<string, string[]> {
  const conflicts = new Map<string, string[]>();
  if (!isApiError(err)) return conflicts;
  for (const cause of statusOf(err).details?.causes ?? []) {
    if (cause.reason !== 'FieldManagerConflict') continue;
    const manager = /conflict with "([^"]*)"/.exec(cause.message ?? '')?.[1] ?? 'another field manager';
    const fields = conflicts.get(manager) ?? [];
    if (cause.field) fields.push(cause.field);
    conflicts.set(manager, fields);
  }
  return conflicts;
}

/** The ActivityFailed of a server-side apply refused for fields owned by other managers. */
export function applyConflictFailure(apiError: ApiError, op: Operation): ActivityFailed {
  const owned = [...applyConflicts(apiError)]
    .map(([manager, fields]) => `${fields.join(', ') || 'some fields'} owned by field manager "${manager}"`)
    .join('; ');
  const detail = owned || apiError.serverMessage;
  return new ActivityFailed(
    `${failedTo(op)}: conflict with other field managers: ${detail}; nothing was changed (set force: true to take these fields over as field manager "${FIELD_MANAGER}")`,
    { cause: apiError },
  );
}

/** The ActivityFailed of a create refused because the object exists (409 AlreadyExists). */
export function alreadyExistsFailure(
  apiError: ApiError,
  op: Operation,
  alternatives: string,
): ActivityFailed {
  return new ActivityFailed(
    `${failedTo(op)}: it already exists (${apiError.serverMessage}); nothing was created (delete it first, or change it with ${alternatives})`,
    { cause: apiError },
  );
}
