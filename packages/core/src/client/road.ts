// What a runner asks of a cluster through a client, whose transport only core reaches: who its
// identity is, which rights it lacks, and an Event posted (on a run's Job). Each takes a client
// or a transport and goes below the write chain, as none of them changes what a run records.

import { type EventNote, postEvent as postOver } from '../events/event.js';
import { missingRights as missingOver, type Right, whoAmI as whoOver } from '../transport/access.js';
import type { Transport } from '../transport/transport.js';
import { KubeClient, transportOf } from './kube-client.js';

/** A client (its transport, reached by core), or a transport. */
export type Road = KubeClient | Transport;

const transportIn = (road: Road): Transport => (road instanceof KubeClient ? transportOf(road) : road);

/** The user name the API server knows the credentials as (SelfSubjectReview). */
export const whoAmI = (road: Road): Promise<string | undefined> => whoOver(transportIn(road));

/** Of `rights`, those the identity lacks (one SelfSubjectAccessReview each). */
export const missingRights = (road: Road, rights: readonly Right[]): Promise<Right[]> =>
  missingOver(transportIn(road), rights);

/** Posts an Event (events.k8s.io/v1): never railed nor recorded, as it changes no target. */
export const postEvent = (road: Road, note: EventNote): Promise<void> => postOver(transportIn(road), note);
