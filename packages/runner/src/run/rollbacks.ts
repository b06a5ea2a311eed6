// The rollbacks, as chaostoolkit-lib's run_rollback: played or not as the strategy says (and,
// D70, after an interruption under every strategy but `never`); each whatever happened to the
// one before it; abandoned by the user's second, confirmed interruption.

import { asReverting } from '@chaoskit/core/runner';
import type { Step } from '../experiment/format.js';
import { inSpan } from '../telemetry/telemetry.js';
import { playActivity, playAll } from './activity.js';
import { iso, type Status } from './journal.js';
import { fatal, Interrupted, type RunState } from './state.js';

/** Whether the rollbacks play, and if not, why. */
function played(state: RunState): true | 'strategy' | 'unconfirmed' {
  const { journal } = state;
  const strategy = state.options.rollbackStrategy ?? 'default';
  // A run not confirmed changed nothing: there is nothing to roll back.
  if (state.unconfirmed) return 'unconfirmed';
  const interrupted = journal.status === 'interrupted';
  return strategy === 'always' ||
    (interrupted && strategy !== 'never') ||
    (strategy === 'default' && journal.status !== 'failed') ||
    (strategy === 'deviated' && journal.deviated)
    ? true
    : 'strategy';
}

export async function runRollbacks(state: RunState): Promise<void> {
  const { journal, emit, options } = state;
  const strategy = options.rollbackStrategy ?? 'default';
  const status = journal.status ?? 'completed';
  const rollbacks = Array.isArray(state.prepared.experiment.rollbacks)
    ? state.prepared.experiment.rollbacks
    : [];
  const play = played(state);
  if (play !== true) {
    if (rollbacks.length) await emit({ type: 'rollbacks-skipped', reason: play, strategy, status });
    return;
  }
  if (rollbacks.length === 0) {
    await emit({ type: 'rollbacks-skipped', reason: 'none-declared', strategy, status });
    return;
  }
  // What the rollbacks change undoes the run's faults (core's "fault reverted" events).
  await inSpan('rollbacks', {}, () => asReverting(() => rollBack(state, rollbacks, status)));
}

async function rollBack(state: RunState, rollbacks: Step[], status: Status): Promise<void> {
  const { journal, emit, options } = state;
  const signal = options.rollbackSignal;
  let abandoned = false;
  const abandon = async (left: Step[]) => {
    abandoned = true;
    for (const activity of left) {
      journal.rollbacks.push({
        activity,
        output: null,
        start: iso(),
        status: 'skipped',
        exception: ['Abandoned: the rollbacks were abandoned by the user'],
        end: iso(),
        duration: 0,
      });
    }
    await emit({ type: 'rollbacks-abandoned', left });
  };
  try {
    try {
      await emit({ type: 'phase-started', phase: 'rollbacks', afterInterruption: status === 'interrupted' });
      await playAll(
        state,
        rollbacks,
        // Each rollback is played whatever happened to the one before it.
        (rollback) =>
          playActivity(state, rollback, 'rollbacks', journal.rollbacks, signal).catch((err: unknown) => {
            if (!(err instanceof Interrupted)) throw err;
          }),
        async (index) => {
          if (abandoned) return false;
          if (!signal?.aborted) return true;
          await abandon(rollbacks.slice(index));
          return false;
        },
      );
    } finally {
      await emit({ type: 'phase-ended', phase: 'rollbacks', runs: journal.rollbacks });
    }
  } catch (err) {
    await fatal(state, err);
  }
}
