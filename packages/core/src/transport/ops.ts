// A write to the cluster as a value: what the write chain (client/kube-client.ts) rails,
// confirms, records and sends, one at a time or as a batch. How each goes out as a request is
// here, once.

import { randomBytes } from 'node:crypto';
import { type ApiRequestContext, toApiError } from '../errors/errors.js';
import { changeEvent } from '../telemetry/telemetry.js';
import { CORE_WRITE, type Query, type RequestOptions } from './request.js';
import { collectionPath, objectPath, type ResourceType, requestContext } from './resources.js';
import type { Transport } from './transport.js';

/**
 * The run whose change is on top of an object (or a call's own id, on what it created): here, as
 * the send marks a create with it, and the record (record/) reads and sets it.
 */
export const RUN_ANNOTATION = 'chaoskit.io/run';

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

interface Target {
  type: ResourceType;
  namespace?: string | null;
  /** Extra query parameters (fieldManager, fieldValidation, gracePeriodSeconds…). */
  query?: Query;
}

/** What the record takes the fields' old values from, when the caller has just read the object. */
interface Known {
  before?: unknown;
}

export interface CreateOp extends Target {
  verb: 'create';
  body: unknown;
  /** Create without chaoskit's mark (a revert creating again what a run deleted, as it was). */
  unmarked?: boolean;
}
export interface ReplaceOp extends Target, Known {
  verb: 'replace';
  name: string;
  body: unknown;
}
export interface PatchOp extends Target, Known {
  verb: 'patch';
  name: string;
  patch: unknown;
  patchType: PatchType;
}
export interface DeleteOp extends Target, Known {
  verb: 'delete';
  name: string;
  /** DeleteOptions (preconditions, propagationPolicy…). */
  body?: unknown;
}
/** A pod's eviction (the Eviction API: disruption budgets are honoured). */
export interface EvictOp extends Target {
  verb: 'evict';
  name: string;
  /** The Eviction (default: one naming the pod). */
  body?: unknown;
}
/** A POST to another subresource of an object. */
export interface SubresourceOp extends Target {
  verb: 'subresource';
  name: string;
  subresource: string;
  body: unknown;
}

export type WriteOp = CreateOp | ReplaceOp | PatchOp | DeleteOp | EvictOp | SubresourceOp;
/** What a batch holds: deletes, or evictions. */
export type RemovalOp = DeleteOp | EvictOp;

/** A write sent through the chain, as the run's trace and meters count it (telemetry.ts). */
export function changed(op: WriteOp, dryRun: boolean): void {
  if (dryRun) return;
  changeEvent({ verb: op.verb, resource: op.type.plural, name: nameOf(op), namespace: op.namespace });
}

/** The name of the object a write is about (a create's from its body). */
export function nameOf(op: WriteOp): string | undefined {
  return op.verb === 'create' ? (op.body as { metadata?: { name?: string } })?.metadata?.name : op.name;
}

/** The write in words, as the confirmation asks for it: `delete pod web in namespace shop`. */
export function describeOp(op: WriteOp): string {
  const verb = op.verb === 'subresource' ? `create ${op.subresource} of` : op.verb;
  const where = op.type.namespaced && op.namespace ? `in namespace ${op.namespace}` : '';
  return [verb, op.type.noun, nameOf(op), where].filter(Boolean).join(' ');
}

/** The write, as its errors name it: `update deployment 'web' in namespace 'shop': …`. */
function contextOf(op: WriteOp): ApiRequestContext {
  const verb =
    op.verb === 'replace'
      ? 'update'
      : op.verb === 'evict'
        ? 'create eviction of'
        : op.verb === 'subresource'
          ? `create ${op.subresource} of`
          : op.verb;
  return requestContext(op.type, verb, nameOf(op), op.namespace);
}

function requestOf(op: WriteOp, body: unknown, dryRun: boolean): RequestOptions {
  const query = { ...op.query, ...(dryRun ? { dryRun: 'All' } : {}) };
  const at = (subresource?: string) => objectPath(op.type, nameOf(op) ?? '', op.namespace, subresource);
  switch (op.verb) {
    case 'create':
      return { method: 'POST', path: collectionPath(op.type, op.namespace), query, body };
    case 'replace':
      return { method: 'PUT', path: at(), query, body };
    case 'patch':
      return { method: 'PATCH', path: at(), query, body, contentType: PATCH_CONTENT_TYPE[op.patchType] };
    case 'delete':
      return { method: 'DELETE', path: at(), query, ...(body !== undefined ? { body } : {}) };
    case 'evict':
      return { method: 'POST', path: at('eviction'), query, body };
    case 'subresource':
      return { method: 'POST', path: at(op.subresource), query, body };
  }
}

function defaultBody(op: WriteOp): unknown {
  switch (op.verb) {
    case 'patch':
      return op.patch;
    case 'evict':
      return (
        op.body ?? {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: op.name, namespace: op.namespace ?? '' },
        }
      );
    default:
      return op.body;
  }
}

/** A create's body with a call's own mark (outside a run): how a retried create knows its object. */
function callMarked(body: unknown): unknown {
  const o = (body ?? {}) as { metadata?: { annotations?: Record<string, string> } };
  const annotations = {
    ...o.metadata?.annotations,
    [RUN_ANNOTATION]: `call-${randomBytes(6).toString('hex')}`,
  };
  return { ...o, metadata: { ...o.metadata, annotations } };
}

export interface SendOptions {
  /** The body as the record left it (the run's marks set); default: the op's own. */
  body?: unknown;
  /** A server-side dry run (`dryRun=All`): the server checks the write and changes nothing. */
  dryRun?: boolean;
}

/**
 * Sends a write as it is: no rail, no record. The write chain's last step, and the writes of
 * the record itself (its ConfigMaps, its lock, its key) and of a revert. A create not marked by
 * the record carries a call's own mark (unless `unmarked`); when a retried create meets
 * AlreadyExists (an earlier attempt may have been applied), the object is read: it is this
 * call's own if it carries the mark, otherwise the Conflict stands.
 */
export async function sendWrite<T>(transport: Transport, op: WriteOp, options: SendOptions = {}): Promise<T> {
  const dryRun = options.dryRun === true;
  let body = options.body ?? defaultBody(op);
  if (op.verb === 'create' && options.body === undefined && !op.unmarked && !dryRun) body = callMarked(body);
  const res = await transport.send({ ...requestOf(op, body, dryRun), [CORE_WRITE]: true });
  const name = nameOf(op);
  const mark = (body as { metadata?: { annotations?: Record<string, string> } })?.metadata?.annotations?.[
    RUN_ANNOTATION
  ];
  if (op.verb === 'create' && res.status === 409 && res.ambiguous && name && mark) {
    const existing = await transport.get<{ metadata?: { annotations?: Record<string, string> } }>(
      op.type,
      name,
      op.namespace,
    );
    if (existing.metadata?.annotations?.[RUN_ANNOTATION] === mark) return existing as T;
  }
  if (res.status >= 400)
    throw toApiError({ code: res.status, body: res.body, headers: res.headers }, contextOf(op));
  return (res.body ? JSON.parse(res.body) : undefined) as T;
}
