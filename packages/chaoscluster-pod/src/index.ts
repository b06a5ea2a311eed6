import type { AnyActivity } from '@chaoskit/core';
import { countPodsActivity } from './count-pods.js';
import { deletePodsActivity } from './delete-pods.js';
import { execInPodsActivity } from './exec-in-pods.js';
import { podIsNotAvailableActivity } from './pod-is-not-available.js';
import { podsInConditionsActivity } from './pods-in-conditions.js';
import { podsInPhaseActivity } from './pods-in-phase.js';
import { podsNotInPhaseActivity } from './pods-not-in-phase.js';
import { readPodLogsActivity } from './read-pod-logs.js';
import { terminatePodsActivity } from './terminate-pods.js';

export * from './count-pods.js';
export * from './delete-pods.js';
export * from './exec-in-pods.js';
export * from './pod-is-not-available.js';
export * from './pods-in-conditions.js';
export * from './pods-in-phase.js';
export * from './pods-not-in-phase.js';
export * from './read-pod-logs.js';
export * from './terminate-pods.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  terminatePodsActivity,
  deletePodsActivity,
  execInPodsActivity,
  readPodLogsActivity,
  countPodsActivity,
  podIsNotAvailableActivity,
  podsInConditionsActivity,
  podsInPhaseActivity,
  podsNotInPhaseActivity,
];
