// Who wrote a record: the identity the API server knew the run's credentials as (its
// SelfSubjectReview), sealed in the record's header and in each object's undo. A record is only
// ever undone as its writer — by the writer itself, or by someone allowed to impersonate it — so
// that the API server judges every undo write as the writer's own: a record can never make
// anyone write what its writer could not (D158).

import type { Identity } from '../transport/access.js';
import type { Impersonation } from '../transport/request.js';
import type { Transport } from '../transport/transport.js';

export type Writer = Identity;

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

/** The service account a user name is, if it is one. */
export function serviceAccountOf(username: string): { namespace: string; name: string } | undefined {
  const match = SERVICE_ACCOUNT.exec(username);
  return match ? { namespace: match[1]!, name: match[2]! } : undefined;
}

/**
 * How to act as `writer`: its user name and, for a person, its groups (system:authenticated is
 * the server's to add). A service account's groups are added by the server itself.
 */
export function impersonationOf(writer: Writer): Impersonation {
  if (serviceAccountOf(writer.username)) return { user: writer.username };
  const groups = (writer.groups ?? []).filter((g) => g !== 'system:authenticated');
  return { user: writer.username, ...(groups.length ? { groups } : {}) };
}

/**
 * The road to act as `writer`: `kube` itself when its own identity is the writer, else `kube`
 * impersonating it (the identity of `kube` must be allowed to).
 */
export function actingAs(kube: Transport, self: Identity | undefined, writer: Writer): Transport {
  return self?.username === writer.username ? kube : kube.as(impersonationOf(writer));
}
