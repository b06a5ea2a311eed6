// The experiment's safeguards at run time (D127), as chaosaddons' Guardian runs them: the probes
// with neither `background` nor `frequency` all at once before the experiment (the run waits
// for them), the `background` ones once without waiting, the `frequency` ones every so many
// seconds until the rollbacks start. The first probe out of its tolerance — or failing —
// interrupts the run; the journal names it, with its run.

import { sleep } from '@chaoskit/core';
import { redact, redactValue } from '@chaoskit/core/runner';
import type { SafeguardProbe } from '../controls/safeguards.js';
import { resolveStep } from '../experiment/refs.js';
import { meetsTolerance } from './hypothesis.js';
import { callProvider } from './invoke.js';
import { type ActivityRun, type Interruption, iso } from './journal.js';
import type { RunGuard, RunState } from './state.js';

const toleranceOf = (probe: SafeguardProbe, run: ActivityRun) =>
  'tolerance' in probe ? probe.tolerance : run.activity.tolerance;

/** Runs a safeguard probe once: its journal entry, its tolerance checked. */
async function check(state: RunState, probe: SafeguardProbe, signal: AbortSignal): Promise<ActivityRun> {
  const activity = resolveStep(state.refs, probe);
  const start = iso();
  const t0 = performance.now();
  const run: Partial<ActivityRun> = { activity: activity ?? probe, output: null, start };
  try {
    if (!activity) throw new Error(`could not find referenced activity '${String(probe.ref)}'`);
    run.output = redactValue(
      await callProvider(activity, state.prepared, {
        safety: state.safety,
        signal,
        ...(state.options.env ? { env: state.options.env } : {}),
      }),
    );
    run.status = 'succeeded';
    // A reference's tolerance is the safeguard's own, else the activity's.
    run.tolerance_met = await meetsTolerance(
      state,
      toleranceOf(probe, run as ActivityRun),
      run.output,
      signal,
    );
  } catch (err) {
    run.status = 'failed';
    run.exception = [`${(err as Error).name || 'Error'}: ${redact((err as Error).message ?? String(err))}`];
    run.tolerance_met = false;
  }
  run.end = iso();
  run.duration = (performance.now() - t0) / 1000;
  return run as ActivityRun;
}

const why = (probe: SafeguardProbe, run: ActivityRun) =>
  run.status === 'failed'
    ? `its probe failed (${run.exception?.[0] ?? 'no reason given'})`
    : `its probe returned ${JSON.stringify(run.output)}, outside its tolerance ${JSON.stringify(toleranceOf(probe, run) ?? null)}`;

/** The experiment's safeguards as one guard of the run, or none when it declares none. */
export function safeguards(state: RunState): RunGuard | undefined {
  const probes = state.prepared.safeguards;
  if (!probes.length) return undefined;
  const stopped = new AbortController();
  return {
    async start(interrupt) {
      const breach = (probe: SafeguardProbe, run: ActivityRun) => {
        if (run.tolerance_met || stopped.signal.aborted) return false;
        const name = String(probe.name ?? run.activity.name);
        const interruption: Interruption = {
          by: 'safeguard',
          name,
          reason: `safeguard '${name}': ${why(probe, run)}`,
          run,
        };
        interrupt(interruption);
        return true;
      };
      for (const probe of probes) {
        if (probe.frequency) {
          const every = probe.frequency * 1000;
          void (async () => {
            while (!stopped.signal.aborted) {
              if (breach(probe, await check(state, probe, stopped.signal))) return;
              await sleep(every, stopped.signal).catch(() => undefined);
            }
          })();
        } else if (probe.background)
          void check(state, probe, stopped.signal).then((run) => breach(probe, run));
      }
      // The checks before the experiment: all at once, the run waiting for every one.
      const before = probes.filter((p) => !p.frequency && !p.background);
      const runs = await Promise.all(before.map((p) => check(state, p, stopped.signal)));
      before.some((probe, i) => breach(probe, runs[i]!));
    },
    stop: () => stopped.abort(),
  };
}
