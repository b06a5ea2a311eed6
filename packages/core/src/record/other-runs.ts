// Which runs still hold a change to an object, by the verified records at hand: what tells a
// chained revert whether to stop at the run under it or go back before both.

import type { OtherRuns } from './assess.js';
import { sameObject } from './names.js';
import type { RunRecord } from './read.js';

/** Which runs still hold a change to an object, by the verified records at hand. */
export function otherRunsOf(runs: readonly RunRecord[]): OtherRuns {
  return {
    holds: async (runId, ref) =>
      runs.some((run) => run.runId === runId && run.objects.some((o) => sameObject(o.ref, ref))),
  };
}
