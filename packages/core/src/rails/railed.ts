// What the rails need of the client that writes (the write chain's writer, client/steps.ts):
// the rails sit below the chain, so they name only what they read of it.

import type { CountOptions } from '../transport/lists.js';
import type { ResourceType } from '../transport/resources.js';
import type { Safety } from './safety.js';

/** A KubeClient is one: an activity checks the pod share rail itself with `checkPodRemoval(ctx.kube, …)`. */
export interface Railed {
  /** How many objects match (the pod share rail counts a namespace's pods). */
  count(t: ResourceType, options?: CountOptions): Promise<number>;
  /** Who makes the changes (`module.func`), for the rails' refusals. */
  readonly activity: string;
  readonly safety: Safety | undefined;
  readonly dryRun: boolean;
  /** A line of what the rails considered, for the activity's log. */
  note(line: string): void;
}
