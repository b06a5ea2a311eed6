// What the rails need of the client that writes (the write chain's writer, client/steps.ts):
// the rails sit below the chain, so they name only what they read of it.

import type { Transport } from '../transport/transport.js';
import type { Safety } from './safety.js';

export interface Railed {
  readonly transport: Transport;
  /** Who makes the changes (`module.func`), for the rails' refusals. */
  readonly activity: string;
  readonly safety: Safety | undefined;
  readonly dryRun: boolean;
  /** A line of what the rails considered, for the activity's log. */
  note(line: string): void;
}
