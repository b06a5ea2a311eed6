import type { AnyActivity } from '@chaoskit/core';
import { terminatePodsActivity } from './terminate-pods.js';

export * from './terminate-pods.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [terminatePodsActivity];
