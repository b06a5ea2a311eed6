// The method, as chaostoolkit-lib's run_method: its activities in order (some in the
// background), with the hypothesis checked alongside when the strategy says so.

import { inSpan } from '../telemetry/telemetry.js';
import { playActivity, playAll } from './activity.js';
import { duringMethod } from './hypothesis.js';
import { checkInterrupt, type RunState } from './state.js';

export function runMethod(state: RunState): Promise<void> {
  return inSpan('method', {}, () => method(state));
}

async function method(state: RunState): Promise<void> {
  const { journal, emit } = state;
  const steps = Array.isArray(state.prepared.experiment.method) ? state.prepared.experiment.method : [];
  let over = false;
  let during: Promise<void> | undefined;
  try {
    try {
      await emit({ type: 'phase-started', phase: 'method' });
      during = duringMethod(state, () => over);
      await playAll(
        state,
        steps,
        (step) => playActivity(state, step, 'method', journal.run, state.signal),
        () => {
          checkInterrupt(state.signal);
          // --fail-fast: a failed activity (or a deviation during the method) starts no other.
          return journal.status !== 'failed';
        },
      );
    } finally {
      await emit({ type: 'phase-ended', phase: 'method', runs: journal.run });
    }
  } finally {
    over = true;
    await during;
  }
}
