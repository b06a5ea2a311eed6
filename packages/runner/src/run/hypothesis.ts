// The steady-state hypothesis, as chaostoolkit-lib checks it: before the method (the gate),
// during it (continuously), after it (the deviation check), as the strategy says.

import { sleep } from '@chaoskit/core';
import type { Activity, Hypothesis } from '../experiment/format.js';
import { inSpan } from '../telemetry/telemetry.js';
import { withinTolerance } from '../tolerance/tolerance.js';
import { playActivity } from './activity.js';
import type { HypothesisWhen } from './events.js';
import { callProvider, withValue } from './invoke.js';
import type { HypothesisState } from './journal.js';
import { checkInterrupt, fatal, Interrupted, type RunState } from './state.js';

const STRATEGIES: Record<HypothesisWhen, readonly string[]> = {
  before: ['default', 'before-method-only', 'continuously'],
  during: ['during-method-only', 'continuously'],
  after: ['default', 'after-method-only', 'continuously'],
};

/** The hypothesis, when it has probes to check. */
export function hypothesisOf(state: RunState): Hypothesis | undefined {
  const hypothesis = state.prepared.experiment['steady-state-hypothesis'];
  return hypothesis?.probes?.length ? hypothesis : undefined;
}

/** Whether the strategy checks the hypothesis at that point of the run (and there is one). */
function checked(state: RunState, when: HypothesisWhen): boolean {
  return !!hypothesisOf(state) && STRATEGIES[when].includes(state.options.hypothesisStrategy ?? 'default');
}

const anyProbeFailed = (state: HypothesisState) => state.probes.some((p) => p.status === 'failed');

/** Checks each probe against its tolerance, in order; the first one not met ends the check. */
function checkHypothesis(state: RunState, when: HypothesisWhen): Promise<HypothesisState> {
  return inSpan(`steady-state ${when}`, {}, async (span) => {
    const result = await check(state, when);
    span.setAttribute('chaoskit.steady_state_met', result.steady_state_met === true);
    return result;
  });
}

async function check(state: RunState, when: HypothesisWhen): Promise<HypothesisState> {
  const { emit } = state;
  const hypothesis = hypothesisOf(state)!;
  const result: HypothesisState = { steady_state_met: null, probes: [] };
  let unmet: { probe: string; failed: boolean; why?: string } | undefined;
  try {
    await emit({ type: 'phase-started', phase: 'hypothesis', when, hypothesis });
    for (const probe of hypothesis.probes!) {
      checkInterrupt(state.signal);
      const run = await playActivity(state, probe, 'hypothesis', result.probes, state.signal);
      const name = String(probe.name ?? run.activity.name);
      if (run.status === 'failed') {
        run.tolerance_met = false;
        result.steady_state_met = false;
        unmet = { probe: name, failed: true };
        return result;
      }
      if (state.options.dry === 'probes' || state.options.dry === 'activities') {
        // As Chaos Toolkit: a probe not run has no value to check.
        run.tolerance_met = true;
        continue;
      }
      let why: string | undefined;
      run.tolerance_met = await meetsTolerance(state, probe.tolerance, run.output, state.signal, (w) => {
        why = w;
      });
      if (!run.tolerance_met) {
        result.steady_state_met = false;
        unmet = { probe: name, failed: false, ...(why ? { why } : {}) };
        return result;
      }
    }
    result.steady_state_met = true;
    return result;
  } finally {
    await emit({
      type: 'phase-ended',
      phase: 'hypothesis',
      when,
      hypothesis,
      state: result,
      ...(unmet ? { unmet } : {}),
    });
  }
}

/** Whether a probe's output is within its tolerance (a tolerance probe that fails: not). */
export function meetsTolerance(
  state: RunState,
  tolerance: unknown,
  output: unknown,
  signal: AbortSignal | undefined,
  explain?: (why: string) => void,
): Promise<boolean> {
  const { prepared } = state;
  // withinTolerance substitutes ${name} in the tolerance itself.
  return withinTolerance(tolerance, output, {
    configuration: prepared.configuration,
    secrets: prepared.secrets,
    ...(explain ? { explain } : {}),
    runProbe: async (toleranceProbe, value) => {
      try {
        const probed = withValue(toleranceProbe as Activity, value);
        return Boolean(
          await callProvider(probed, prepared, {
            safety: state.safety,
            ...(signal ? { signal } : {}),
            ...(state.options.env ? { env: state.options.env } : {}),
          }),
        );
      } catch {
        return false;
      }
    },
  });
}

/** The hypothesis before the method: not met, the method does not run (false). */
export async function gate(state: RunState): Promise<boolean> {
  if (!checked(state, 'before')) return true;
  const { journal } = state;
  journal.steady_states.before = await checkHypothesis(state, 'before');
  if (journal.steady_states.before.steady_state_met) return true;
  journal.status = anyProbeFailed(journal.steady_states.before) ? 'failed' : 'completed';
  return false;
}

/**
 * The hypothesis during the method, every `hypothesisFrequency` seconds until `over()`; under
 * `--fail-fast`, the first deviation fails the run.
 */
export function duringMethod(state: RunState, over: () => boolean): Promise<void> | undefined {
  if (!checked(state, 'during')) return undefined;
  const { journal, options } = state;
  return (async () => {
    while (!over() && !journal.status) {
      const result = await checkHypothesis(state, 'during');
      journal.steady_states.during.push(result);
      if (!result.steady_state_met && options.failFast && !journal.status) {
        journal.status = 'failed';
        await state.emit({ type: 'fail-fast' });
        break;
      }
      await sleep((options.hypothesisFrequency ?? 1) * 1000, state.signal).catch(() => undefined);
    }
  })().catch(async (err: unknown) => {
    if (!(err instanceof Interrupted)) await fatal(state, err);
  });
}

/** The hypothesis after the method: not met, the run has deviated. */
export async function afterMethod(state: RunState): Promise<void> {
  if (!checked(state, 'after')) return;
  const { journal } = state;
  journal.steady_states.after = await checkHypothesis(state, 'after');
  if (journal.steady_states.after.steady_state_met) return;
  journal.deviated = true;
  // A run failed fast stays failed.
  if (journal.status !== 'failed')
    journal.status = anyProbeFailed(journal.steady_states.after) ? 'failed' : 'completed';
  await state.emit({ type: 'deviated' });
}
