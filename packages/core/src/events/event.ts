// One Kubernetes Event, as chaoskit posts it: core/v1 (what `kubectl describe` lists, by
// involvedObject, and what kubelet and client-go's recorders write), with the newer fields set
// too (eventTime, reportingComponent, action) so that events.k8s.io/v1 readers see it whole.
// An Event is a note, not a change: it is sent as it is (no rails, no record, no mark) — the
// changes' Events (notes.ts) and the Events on a run's Job alike.

import { hostname } from 'node:os';
import { isApiError } from '../errors/errors.js';
import { redact } from '../errors/redact.js';
import type { RbacRule } from '../transport/access.js';
import { sendWrite } from '../transport/ops.js';
import type { ResourceType } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';

export const Events: ResourceType = {
  apiVersion: 'v1',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
  noun: 'event',
};

/** The right an Event needs, in the namespace it is posted in. */
export const EVENT_RULES: readonly RbacRule[] = [
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
];

/** Who chaoskit's Events say they are from (`kubectl describe`'s "From" column). */
export const REPORTING_COMPONENT = 'chaoskit';

/** What an Event is about, as its involvedObject names it. */
export interface Regarding {
  apiVersion: string;
  kind: string;
  name: string;
  /** Absent for a cluster-wide object (a node): its Events are kept in `default`, as kubelet's are. */
  namespace?: string | null | undefined;
  uid?: string | undefined;
}

export interface EventNote {
  regarding: Regarding;
  /** CamelCase, what happened: `ChaosInjected`, `Deviated`. */
  reason: string;
  type: 'Normal' | 'Warning';
  /** What was done, in one word: `Patch`, `Rollback`. */
  action: string;
  message: string;
}

/** The namespace an Event on `regarding` is kept in. */
export const eventNamespace = (regarding: Regarding) => regarding.namespace || 'default';

/** Microseconds, as the API's MicroTime takes them. */
const microTime = (date: Date) => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
/** Seconds, as the API's Time takes them. */
const time = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The Event's body: named as kubelet names them (`<object>.<time in hex><random>`). */
export function eventBody(note: EventNote, now = new Date()): Record<string, unknown> {
  const { regarding } = note;
  const suffix = `.${now.getTime().toString(16)}${Math.random().toString(16).slice(2, 8)}`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${regarding.name.slice(0, 253 - suffix.length)}${suffix}`,
      namespace: eventNamespace(regarding),
    },
    involvedObject: {
      apiVersion: regarding.apiVersion,
      ...(regarding.kind ? { kind: regarding.kind } : {}),
      name: regarding.name,
      ...(regarding.namespace ? { namespace: regarding.namespace } : {}),
      ...(regarding.uid ? { uid: regarding.uid } : {}),
    },
    reason: note.reason,
    type: note.type,
    action: note.action,
    // The API takes 1 kB of message: 340 characters are at most 1020 bytes.
    message: redact(note.message).slice(0, 340),
    source: { component: REPORTING_COMPONENT },
    reportingComponent: REPORTING_COMPONENT,
    reportingInstance: hostname().slice(0, 128),
    eventTime: microTime(now),
    firstTimestamp: time(now),
    lastTimestamp: time(now),
    count: 1,
  };
}

/**
 * Posts one Event; a refusal is thrown (an ApiError). Its name is this post's own: when a retried
 * create meets AlreadyExists, the first attempt was applied.
 */
export async function postEvent(transport: Transport, note: EventNote): Promise<void> {
  const body = eventBody(note);
  try {
    await sendWrite(transport, {
      verb: 'create',
      type: Events,
      body,
      namespace: eventNamespace(note.regarding),
      unmarked: true,
    });
  } catch (err) {
    if (!isApiError(err, 'Conflict')) throw err;
  }
}
