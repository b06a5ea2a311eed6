// One step's turn, as chaostoolkit-lib's execute_activity: its pause before, the call, its
// journal entry, its pause after; and a list of steps played in order, some in the background.

import { isChaosError, type SafetyRefusal, sleep } from '@chaoskit/core';
import { redact, redactValue, substitute } from '@chaoskit/core/runner';
import { SpanStatusCode } from '@opentelemetry/api';
import type { Activity, Step } from '../experiment/format.js';
import { resolveStep } from '../experiment/refs.js';
import { inSpan } from '../telemetry/telemetry.js';
import type { Phase } from './events.js';
import { argumentsOf, callProvider } from './invoke.js';
import { type ActivityRun, iso } from './journal.js';
import { Interrupted, isDry, Refused, type RunState } from './state.js';

/**
 * Plays one step of `phase`; its journal entry goes into `into` as soon as it is called. What
 * interrupts it (`signal`) ends it at its next safe point, and throws Interrupted; a rail that
 * refuses a hypothesis or method action throws Refused.
 */
export async function playActivity(
  state: RunState,
  step: Step,
  phase: Phase,
  into: ActivityRun[] | undefined,
  // The rollbacks have their own (the user abandoning them), or none.
  signal: AbortSignal | undefined,
): Promise<ActivityRun> {
  const activity = resolveStep(state.refs, step);
  if (!activity) {
    await state.emit({ type: 'activity-started', phase, step, activity });
    throw new Error(`could not find referenced activity '${String(step.ref)}'`);
  }
  // The entry, from the moment the provider is called: what the turn's end says, however it ends.
  const turn: Turn = { phase, background: step.background === true && phase !== 'hypothesis' };
  const skipped = isDry(state.options.dry, activity);
  const attributes = {
    'chaoskit.activity': redact(String(activity.name)),
    'chaoskit.activity.type': activity.type,
    'chaoskit.phase': phase,
    'chaoskit.provider': providerOf(activity),
    'chaoskit.dry_run': skipped,
    'chaoskit.background': turn.background,
  };
  return inSpan(`${activity.type} ${attributes['chaoskit.activity']}`, attributes, async (span) => {
    if (span.isRecording()) span.setAttribute('chaoskit.targets', targetsOf(state, activity));
    try {
      await state.emit({ type: 'activity-started', phase, step, activity });
      return await call(state, activity, turn, into, signal);
    } finally {
      const run = turn.run;
      if (run) span.setAttribute('chaoskit.outcome', skipped ? 'skipped' : run.status);
      if (run?.status === 'failed')
        span.setStatus({ code: SpanStatusCode.ERROR, message: run.exception?.join('\n') ?? 'failed' });
      await state.emit({ type: 'activity-ended', phase, activity, run: run ?? null });
    }
  });
}

/** What runs the activity: a chaoskit activity's `module.func`, `process`, `http`. */
function providerOf(activity: Activity): string {
  const provider = activity.provider;
  return provider.type === 'python' ? `${provider.module}.${provider.func}` : provider.type;
}

/** The namespaces a chaoskit action says it changes (its rails' targets); none for the others. */
function targetsOf(state: RunState, activity: Activity): string[] {
  const target = state.prepared.activities.get(activity);
  if (target?.kind !== 'action') return [];
  try {
    const { args } = argumentsOf(activity, state.prepared);
    return target.targetNamespaces(target.validate(args)).map((t) => redact(t.namespace));
  } catch {
    // Arguments the activity refuses: its call fails and says why.
    return [];
  }
}

interface Turn {
  phase: Phase;
  /** Started with the next step, without waiting (not in the hypothesis). */
  background: boolean;
  run?: ActivityRun;
}

async function call(
  state: RunState,
  activity: Activity,
  turn: Turn,
  into: ActivityRun[] | undefined,
  signal: AbortSignal | undefined,
): Promise<ActivityRun> {
  const { phase, background } = turn;
  const { emit, journal, options } = state;
  const dry = options.dry;
  const skipped = isDry(dry, activity);
  const pauses = dry === 'pause' || skipped ? undefined : activity.pauses;
  if (activity.pauses && !pauses && dry) await emit({ type: 'pauses-skipped', activity, dry });
  await pause(state, activity, 'before', pauses?.before, signal);
  if (signal?.aborted) throw new Interrupted('interrupted');
  const leftOut = skipped && dry ? { dry } : {};
  await emit({ type: 'activity-called', phase, activity, background, ...leftOut });
  const logs: string[] = [];
  const run: Partial<ActivityRun> = { activity, output: null, start: iso() };
  turn.run = run as ActivityRun;
  into?.push(turn.run);
  const t0 = performance.now();
  let refusal: SafetyRefusal | undefined;
  let failedFast = false;
  try {
    if (!skipped)
      run.output = redactValue(
        await callProvider(activity, state.prepared, {
          log: (line) => {
            logs.push(redact(line));
            // An activity's lines are said as they come: the log's listener hears them at once.
            void emit({ type: 'activity-logged', activity, line: redact(line) }).catch(() => undefined);
          },
          safety: state.safety,
          ...(signal ? { signal } : {}),
          ...(options.ledger ? { ledger: options.ledger } : {}),
          ...(options.notes ? { notes: options.notes } : {}),
          ...(options.env ? { env: options.env } : {}),
        }),
      );
    run.status = 'succeeded';
  } catch (err) {
    run.status = 'failed';
    const interrupted = signal?.aborted === true;
    const kind = interrupted ? 'Interrupted' : isChaosError(err) ? err.code : (err as Error).name || 'Error';
    // An activity's own Aborted says what it had done to each target when it stopped.
    const message = interrupted
      ? isChaosError(err, 'Aborted')
        ? redact(err.message)
        : 'the run was interrupted while this activity ran; it stopped at its next safe point'
      : redact((err as Error).message ?? String(err));
    run.exception = [`${kind}: ${message}`];
    // A rollback refused is reported like any failed rollback; in the method, nothing after it runs.
    if (isChaosError(err, 'Refused') && phase !== 'rollbacks') refusal = err as SafetyRefusal;
    if (options.failFast && phase === 'method' && !interrupted && !journal.status) {
      journal.status = 'failed';
      failedFast = true;
    }
  }
  run.end = iso();
  run.duration = (performance.now() - t0) / 1000;
  if (logs.length) run.logs = logs;
  const done = run as ActivityRun;
  await emit({ type: 'activity-returned', phase, run: done, background, ...leftOut });
  if (failedFast) await emit({ type: 'fail-fast', activity: activity.name });
  // An activity stopped by an interruption ends the phase: nothing after it starts.
  if (signal?.aborted) throw new Interrupted('interrupted');
  if (refusal) throw new Refused(refusal);
  await pause(state, activity, 'after', pauses?.after, signal);
  if (signal?.aborted) throw new Interrupted('interrupted');
  return done;
}

async function pause(
  state: RunState,
  activity: Activity,
  when: 'before' | 'after',
  value: unknown,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (value === undefined) return;
  const seconds = Number(substitute(value, state.prepared.configuration, state.prepared.secrets));
  if (!(seconds > 0)) return;
  await state.emit({ type: 'activity-paused', activity, when, seconds });
  await sleep(seconds * 1000, signal).catch(() => undefined);
}

/**
 * Plays a list of steps in order; a `background: true` one starts and the next one with it,
 * without waiting (Chaos Toolkit's pool): all are waited for before the phase ends. The first
 * error of a background step ends the phase as it would have in the foreground. `before(index)`
 * says whether the step at `index` starts (false: none after it does).
 */
export async function playAll(
  state: RunState,
  steps: readonly Step[],
  playOne: (step: Step) => Promise<unknown>,
  before: (index: number) => boolean | Promise<boolean>,
): Promise<void> {
  const background: Array<Promise<unknown>> = [];
  let failure: { error: unknown } | undefined;
  try {
    for (const [index, step] of steps.entries()) {
      if (failure) throw failure.error;
      if (!(await before(index))) break;
      if (!step.background) {
        await playOne(step);
        continue;
      }
      background.push(
        playOne(step).catch((error: unknown) => {
          failure ??= { error };
        }),
      );
    }
  } finally {
    if (background.length) {
      await state.emit({ type: 'background-waiting', count: background.length });
      await Promise.all(background);
    }
  }
  if (failure) throw (failure as { error: unknown }).error;
}
