// How records, their entries and the objects they name are named: shared by the writer and
// every reader of the record.

import { createHash } from 'node:crypto';
import type { ResourceType } from '../transport/resources.js';
import type { ObjectRef } from './entries.js';

export const LEDGER_LABEL = 'chaoskit.io/ledger';
export const EXPIRES_ANNOTATION = 'chaoskit.io/expires';
export const TITLE_ANNOTATION = 'chaoskit.io/title';

/** The ConfigMap of a run's record (a deployed run's is its deployment's, below). */
export const recordName = (runId: string) => `chaoskit-run-${runId}`;

/**
 * The ConfigMap of the record of a deployment's runs, one run at a time: a name known when the
 * runner's Role is made, so that it may change that ConfigMap and no other (D158).
 */
export const deploymentRecordName = (deployment: string) => `chaoskit-record-${deployment}`.slice(0, 253);

/**
 * The binding of a record entry's seal: which ConfigMap — by name and by uid, so that a record
 * deleted once undone and created again from a copy verifies no more — and which key.
 */
export const recordBinding = (namespace: string, name: string, uid: string, key: string) => [
  'record',
  namespace,
  name,
  uid,
  key,
];

export function refOf(type: ResourceType, name: string, namespace?: string | null): ObjectRef {
  return {
    apiVersion: type.apiVersion,
    plural: type.plural,
    namespaced: type.namespaced,
    noun: type.noun,
    ...(type.namespaced && namespace ? { namespace } : {}),
    name,
  };
}

export const typeOf = (ref: ObjectRef): ResourceType => ({
  apiVersion: ref.apiVersion,
  plural: ref.plural,
  namespaced: ref.namespaced,
  noun: ref.noun,
  kind: '',
});

/** The same object, whatever else the refs say. */
export const sameObject = (a: ObjectRef, b: ObjectRef) =>
  a.apiVersion.split('/')[0] === b.apiVersion.split('/')[0] &&
  a.plural === b.plural &&
  (a.namespace ?? '') === (b.namespace ?? '') &&
  a.name === b.name;

export const entryId = (ref: ObjectRef) =>
  createHash('sha256')
    .update(`${ref.apiVersion.split('/')[0]}|${ref.plural}|${ref.namespace ?? ''}|${ref.name}`)
    .digest('hex')
    .slice(0, 20);
