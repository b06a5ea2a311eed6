import { hostname, platform, release } from 'node:os';
import { isChaosError, Safety, type SafetyRefusal, sleep } from '@chaoskit/core';
import {
  describeRef,
  type RunLedger,
  redact,
  redactValue,
  secretsFor,
  substitute,
} from '@chaoskit/core/runner';
import { ControlInterrupted, Controls } from './controls.js';
import type { Activity, Json, Prepared } from './experiment.js';
import { runHttp } from './http-provider.js';
import { runProcess } from './process-provider.js';
import { resolveActivity } from './resolve-activity.js';
import { withinTolerance } from './tolerance.js';
import { CHAOSLIB_VERSION, RUNNER_VERSION } from './version.js';

export type RollbackStrategy = 'default' | 'always' | 'never' | 'deviated';
export type HypothesisStrategy =
  | 'default'
  | 'before-method-only'
  | 'after-method-only'
  | 'during-method-only'
  | 'continuously';
export type Status = 'completed' | 'failed' | 'aborted' | 'interrupted';
/** Chaos Toolkit's `--dry`: which activities are not run (and whose pauses are skipped); `pause`: only the pauses. */
export type DryMode = 'probes' | 'actions' | 'activities' | 'pause';
export const DRY_MODES: readonly DryMode[] = ['probes', 'actions', 'activities', 'pause'];

export interface ActivityRun {
  activity: Activity;
  output: unknown;
  start: string;
  /** `skipped`: a rollback not run because the user abandoned the rollbacks. */
  status: 'succeeded' | 'failed' | 'skipped';
  exception?: string[];
  end: string;
  duration: number;
  /** What the activity logged while it ran: the targets it touched, a random seed, waits. */
  logs?: string[];
  tolerance_met?: boolean;
}

export interface HypothesisState {
  steady_state_met: boolean | null;
  probes: ActivityRun[];
}

export interface Journal {
  /** The Chaos Toolkit format emulated (D95); chaoskit's own version is `chaoskit-version`. */
  'chaoslib-version': string;
  'chaoskit-version': string;
  platform: string;
  node: string;
  experiment: Json;
  start: string;
  status: Status | null;
  deviated: boolean;
  steady_states: { before: HypothesisState | null; after: HypothesisState | null; during: HypothesisState[] };
  run: ActivityRun[];
  rollbacks: ActivityRun[];
  end?: string;
  duration?: number;
  /** The run's id: `chaoskit status` and `chaoskit revert <id>` find and undo what it changed. */
  run_id?: string;
  /** What the run changed that was still in place when it ended (its rollbacks did not undo it). */
  left_in_place?: string[];
}

export interface Reporter {
  /** A line for people: what is happening now. */
  info(line: string): void;
  warn(line: string): void;
  /** A detail (`--verbose`, the log file): the activities' results, what was skipped and why. */
  debug?(line: string): void;
}

export interface RunOptions {
  rollbackStrategy?: RollbackStrategy;
  hypothesisStrategy?: HypothesisStrategy;
  /** Seconds between hypothesis runs during the method (continuously, during-method-only). */
  hypothesisFrequency?: number;
  reporter?: Reporter;
  /**
   * Interruption (Ctrl-C, SIGTERM): the activity under way stops at its next safe point, no
   * other hypothesis or method activity starts, and the rollbacks run (under every strategy
   * but `never`), with their own signal.
   */
  signal?: AbortSignal;
  /** Abandons the rollbacks (a second, confirmed interruption): those not run are `skipped`. */
  rollbackSignal?: AbortSignal;
  /** Called with the journal each time an activity ends, so a crash loses at most the one under way. */
  onProgress?: (journal: Journal) => unknown;
  /** The run's record in the cluster: every change is written to it before it is made. */
  ledger?: RunLedger;
  /** `run --confirm`: asked once, before the run's first change, with what it is. */
  confirm?: (firstChange: string) => Promise<boolean>;
  /** `run --dry`: the activities not run (their output is null, their status succeeded). */
  dry?: DryMode;
  /**
   * `run --fail-fast` (D84): the first during-method hypothesis not met (Chaos Toolkit's
   * meaning, under during-method-only and continuously), or the first method activity that
   * fails, fails the run: no further method activity starts.
   */
  failFast?: boolean;
}

class Interrupted extends Error {}

/** A safety rail refused a method activity: the method stops there. */
class Refused extends Error {
  constructor(readonly refusal: SafetyRefusal) {
    super(refusal.message);
  }
}

const iso = () => new Date().toISOString();

export async function runExperiment(prepared: Prepared, options: RunOptions = {}): Promise<Journal> {
  const { experiment, configuration, secrets } = prepared;
  const reporter = options.reporter ?? { info: () => {}, warn: () => {} };
  const debug = (line: string) => reporter.debug?.(line);
  const strategy = options.hypothesisStrategy ?? 'default';
  const rollbackStrategy = options.rollbackStrategy ?? 'default';
  const dry = options.dry;
  const started = performance.now();
  const title = String(substitute(experiment.title, configuration, secrets));
  const journal: Journal = {
    'chaoslib-version': CHAOSLIB_VERSION,
    'chaoskit-version': RUNNER_VERSION,
    platform: `${platform()} ${release()}`,
    node: hostname(),
    experiment: { ...experiment, title, ...(dry ? { dry } : {}) },
    start: iso(),
    status: null,
    deviated: false,
    steady_states: { before: null, after: null, during: [] },
    run: [],
    rollbacks: [],
    ...(options.ledger ? { run_id: options.ledger.runId } : {}),
  };
  reporter.info(`Running experiment: ${title}`);
  if (dry) reporter.warn(`Running experiment with dry ${dry}`);
  const hypothesis = experiment['steady-state-hypothesis'];
  const withHypothesis = !!hypothesis?.probes?.length;
  if (!withHypothesis) reporter.info("No steady state hypothesis defined. That's ok, just exploring.");
  // A control's InterruptExecution stops the run as Ctrl-C does: the activities under way stop
  // at their next safe point, and the rollbacks play with their own signal.
  const stopped = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopped.signal]) : stopped.signal;
  const checkInterrupt = () => {
    if (signal.aborted) throw new Interrupted('interrupted');
  };
  const controls = new Controls(journal.experiment, prepared.controls, {
    configuration,
    secrets,
    info: (line) => reporter.info(line),
    warn: (line) => reporter.warn(line),
    interrupt: (control, message) => {
      reporter.warn(`control '${control}' interrupted the run: ${message}`);
      stopped.abort(new Interrupted(message));
    },
  });
  // One object for the whole run: the confirmation is asked once.
  const safety = new Safety({ ...prepared.rails, ...(options.confirm ? { confirm: options.confirm } : {}) });
  // Background activities end at any time: the journal is written by one of them at a time.
  let writing: Promise<unknown> = Promise.resolve();
  const progress = () => {
    writing = writing.then(async () => {
      try {
        await options.onProgress?.(journal);
      } catch (err) {
        reporter.warn(`the journal could not be written: ${redact((err as Error).message)}`);
      }
    });
    return writing;
  };

  const isDry = (activity: Activity) =>
    dry === 'activities' ||
    (dry === 'actions' && activity.type === 'action') ||
    (dry === 'probes' && activity.type === 'probe');

  const execute = (
    declared: Activity,
    phase: 'hypothesis' | 'method' | 'rollbacks',
    into: ActivityRun[] | undefined,
    activitySignal: AbortSignal | undefined = signal,
  ): Promise<ActivityRun> => {
    const activity = declared.ref ? findByRef(prepared, declared.ref) : declared;
    let record: Partial<ActivityRun> | undefined;
    return controls.around(
      'activity',
      activity,
      async () => {
        const skipped = isDry(activity);
        const pauses = dry === 'pause' || skipped ? undefined : activity.pauses;
        if (activity.pauses && !pauses) debug(`  pauses of '${activity.name}' skipped (--dry ${dry})`);
        await pause(pauses?.before, 'before', prepared, reporter, activitySignal);
        if (activitySignal?.aborted) throw new Interrupted('interrupted');
        const kind = activity.type === 'probe' ? 'Probe' : 'Action';
        const behind = declared.background && phase !== 'hypothesis';
        reporter.info(`${kind}: ${activity.name}${behind ? ' [in background]' : ''}`);
        // Background activities end among the others' lines: their results name them.
        const which = behind ? ` (${activity.name})` : '';
        const logs: string[] = [];
        record = { activity, output: null, start: iso() };
        into?.push(record as ActivityRun);
        const t0 = performance.now();
        let refusal: SafetyRefusal | undefined;
        try {
          if (skipped) debug(`  activity '${activity.name}' is in dry mode (--dry ${dry}): not run`);
          else
            record.output = redactValue(
              await callProvider(
                activity,
                prepared,
                (line) => {
                  logs.push(redact(line));
                  reporter.info(`  ${redact(line)}`);
                },
                {
                  safety,
                  ...(activitySignal ? { signal: activitySignal } : {}),
                  ...(options.ledger ? { ledger: options.ledger } : {}),
                },
              ),
            );
          record.status = 'succeeded';
          reporter.info(`  => succeeded${which}`);
          if (!skipped) debug(`  => output${which}: ${JSON.stringify(record.output) ?? 'null'}`);
        } catch (err) {
          record.status = 'failed';
          const interrupted = activitySignal?.aborted === true;
          const kind = interrupted
            ? 'Interrupted'
            : isChaosError(err)
              ? err.code
              : (err as Error).name || 'Error';
          // An activity's own Aborted says what it had done to each target when it stopped.
          const message = interrupted
            ? isChaosError(err, 'Aborted')
              ? redact(err.message)
              : 'the run was interrupted while this activity ran; it stopped at its next safe point'
            : redact((err as Error).message ?? String(err));
          record.exception = [`${kind}: ${message}`];
          reporter.warn(`  => failed${which}: ${kind}: ${message}`);
          // A rollback refused is reported like any failed rollback; in the method, nothing after it runs.
          if (isChaosError(err, 'Refused') && phase !== 'rollbacks') refusal = err as SafetyRefusal;
          if (options.failFast && phase === 'method' && !interrupted && !journal.status) {
            journal.status = 'failed';
            reporter.warn(`--fail-fast: '${activity.name}' failed, so no other method activity starts`);
          }
        }
        record.end = iso();
        record.duration = (performance.now() - t0) / 1000;
        if (logs.length) record.logs = logs;
        await progress();
        // An activity stopped by an interruption ends the phase: nothing after it starts.
        if (activitySignal?.aborted) throw new Interrupted('interrupted');
        if (refusal) throw new Refused(refusal);
        await pause(pauses?.after, 'after', prepared, reporter, activitySignal);
        if (activitySignal?.aborted) throw new Interrupted('interrupted');
        return record as ActivityRun;
      },
      () => record ?? null,
    );
  };

  /**
   * Plays a list of activities in order; a `background: true` one starts and the next one
   * with it, without waiting (Chaos Toolkit's pool): all are waited for before the phase ends.
   * The first error of a background activity ends the phase as it would have in the foreground.
   */
  const play = async (
    activities: Activity[],
    runOne: (activity: Activity) => Promise<unknown>,
    before: (index: number) => boolean,
  ) => {
    const background: Array<Promise<unknown>> = [];
    let failure: { error: unknown } | undefined;
    try {
      for (const [index, activity] of activities.entries()) {
        if (failure) throw failure.error;
        if (!before(index)) break;
        if (!activity.background) {
          await runOne(activity);
          continue;
        }
        background.push(
          runOne(activity).catch((error: unknown) => {
            failure ??= { error };
          }),
        );
      }
    } finally {
      if (background.length) {
        debug(`Waiting for ${background.length} background activities to complete`);
        await Promise.all(background);
      }
    }
    if (failure) throw (failure as { error: unknown }).error;
  };

  const runHypothesis = async (): Promise<HypothesisState> => {
    reporter.info(`Steady state hypothesis: ${hypothesis!.title}`);
    const state: HypothesisState = { steady_state_met: null, probes: [] };
    return controls.around(
      'hypothesis',
      hypothesis as Json,
      async () => {
        for (const probe of hypothesis!.probes!) {
          checkInterrupt();
          const run = await execute(probe, 'hypothesis', state.probes);
          if (run.status === 'failed') {
            run.tolerance_met = false;
            state.steady_state_met = false;
            reporter.warn('Probe terminated unexpectedly, so its tolerance could not be validated');
            return state;
          }
          if (dry === 'probes' || dry === 'activities') {
            // As Chaos Toolkit: a probe not run has no value to check.
            run.tolerance_met = true;
            continue;
          }
          // withinTolerance substitutes ${name} in the tolerance itself.
          run.tolerance_met = await withinTolerance(probe.tolerance, run.output, {
            configuration,
            secrets,
            runProbe: async (toleranceProbe: Activity, value: unknown) => {
              try {
                const withValue = injectValue(toleranceProbe, value);
                return Boolean(await callProvider(withValue, prepared, () => {}, { safety, signal }));
              } catch {
                return false;
              }
            },
          });
          if (!run.tolerance_met) {
            state.steady_state_met = false;
            reporter.warn(
              `Steady state probe '${probe.name}' is not in the given tolerance so failing this experiment`,
            );
            return state;
          }
        }
        state.steady_state_met = true;
        reporter.info('Steady state hypothesis is met!');
        return state;
      },
      () => state,
    );
  };
  // A run not confirmed changed nothing: there is nothing to roll back.
  let unconfirmed = false;
  const anyProbeFailed = (state: HypothesisState | null) =>
    !!state?.probes.some((p) => p.status === 'failed');
  const method = Array.isArray(experiment.method) ? experiment.method : [];

  const fatal = (err: unknown) => {
    if (err instanceof Interrupted || err instanceof ControlInterrupted) journal.status = 'interrupted';
    else if (err instanceof Refused) {
      journal.status = 'aborted';
      reporter.warn(`A safety rail refused an action, so the method stops here: ${redact(err.message)}`);
      unconfirmed = err.refusal.rail === 'confirmation';
    } else {
      journal.status = 'aborted';
      reporter.warn(
        `Experiment ran into an unexpected fatal error, aborting now: ${redact((err as Error).message)}`,
      );
    }
  };

  try {
    await controls.configure();
    await controls.before('experiment', journal.experiment);
    checkInterrupt();
    let gatePassed = true;
    if (withHypothesis && ['default', 'before-method-only', 'continuously'].includes(strategy)) {
      journal.steady_states.before = await runHypothesis();
      if (!journal.steady_states.before.steady_state_met) {
        gatePassed = false;
        journal.status = anyProbeFailed(journal.steady_states.before) ? 'failed' : 'completed';
      }
    }
    if (gatePassed) {
      reporter.info("Playing your experiment's method now...");
      const during = withHypothesis && ['during-method-only', 'continuously'].includes(strategy);
      let methodDone = false;
      const loop = during
        ? (async () => {
            while (!methodDone && !journal.status) {
              const state = await runHypothesis();
              journal.steady_states.during.push(state);
              if (!state.steady_state_met && options.failFast && !journal.status) {
                // Chaos Toolkit's --fail-fast: the first deviation during the method fails the run.
                journal.status = 'failed';
                reporter.warn(
                  '--fail-fast: the steady state deviated during the method; terminating the method',
                );
                break;
              }
              await sleep((options.hypothesisFrequency ?? 1) * 1000, signal).catch(() => undefined);
            }
          })().catch((err: unknown) => {
            if (!(err instanceof Interrupted)) fatal(err);
          })
        : undefined;
      try {
        await controls.around(
          'method',
          journal.experiment,
          () =>
            play(
              method,
              (activity) => execute(activity, 'method', journal.run),
              () => {
                checkInterrupt();
                return journal.status !== 'failed';
              },
            ),
          () => journal.run,
        );
      } finally {
        methodDone = true;
        await loop;
      }
      checkInterrupt();
      if (
        journal.status !== 'aborted' &&
        withHypothesis &&
        ['default', 'after-method-only', 'continuously'].includes(strategy)
      ) {
        journal.steady_states.after = await runHypothesis();
        if (!journal.steady_states.after.steady_state_met) {
          journal.deviated = true;
          // A run failed fast stays failed.
          if (journal.status !== 'failed')
            journal.status = anyProbeFailed(journal.steady_states.after) ? 'failed' : 'completed';
          reporter.warn('The steady-state has deviated, a weakness may have been discovered');
        }
      }
    }
  } catch (err) {
    fatal(err);
  }
  journal.status ??= 'completed';

  // D70 (docs/decisions.md): an interrupted run plays its rollbacks under every strategy but
  // `never` — an interruption is not a failed hypothesis, and the faults must not outlive it.
  const interrupted = journal.status === 'interrupted';
  const playRollbacks =
    !unconfirmed &&
    (rollbackStrategy === 'always' ||
      (interrupted && rollbackStrategy !== 'never') ||
      (rollbackStrategy === 'default' && journal.status !== 'failed') ||
      (rollbackStrategy === 'deviated' && journal.deviated));
  const rollbacks = Array.isArray(experiment.rollbacks) ? experiment.rollbacks : [];
  if (!playRollbacks) {
    if (rollbacks.length)
      reporter.info(
        unconfirmed
          ? 'Rollbacks not played: the run was not confirmed, so it changed nothing'
          : `Rollbacks not played (strategy ${rollbackStrategy}, status ${journal.status})`,
      );
  } else if (rollbacks.length === 0) reporter.info("No declared rollbacks, let's move on.");
  else {
    if (interrupted) reporter.warn('Interrupted: playing the rollbacks before stopping');
    let abandoned = false;
    const abandon = (left: Activity[]) => {
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
      reporter.warn(`Rollbacks abandoned; not played: ${left.map((r) => r.name ?? r.ref).join(', ')}`);
    };
    await controls
      .around(
        'rollback',
        journal.experiment,
        () =>
          play(
            rollbacks,
            // Each rollback is played whatever happened to the one before it.
            (rollback) =>
              execute(rollback, 'rollbacks', journal.rollbacks, options.rollbackSignal).catch(
                (err: unknown) => {
                  if (!(err instanceof Interrupted)) throw err;
                },
              ),
            (index) => {
              if (abandoned) return false;
              if (options.rollbackSignal?.aborted) {
                abandon(rollbacks.slice(index));
                return false;
              }
              reporter.info(`Rollback: ${rollbacks[index]!.name ?? rollbacks[index]!.ref}`);
              return true;
            },
          ),
        () => journal.rollbacks,
      )
      .catch(fatal);
  }
  if (options.ledger) {
    const left = await settle(options.ledger).catch((err: unknown) => {
      reporter.warn(`could not check what the run left in place: ${redact((err as Error).message)}`);
      return [];
    });
    if (left.length) {
      journal.left_in_place = left;
      reporter.warn(
        `This run's changes still in place: ${left.join('; ')}. Undo them with: chaoskit revert ${options.ledger.runId}`,
      );
    }
  }
  journal.end = iso();
  journal.duration = (performance.now() - started) / 1000;
  reporter.info(`Experiment ended with status: ${journal.deviated ? 'deviated' : journal.status}`);
  // A control interrupting now has nothing left to stop.
  await controls.after('experiment', journal.experiment, journal).catch(() => undefined);
  await controls.cleanup().catch(() => undefined);
  await progress();
  return journal;
}

function findByRef(prepared: Prepared, ref: string): Activity {
  const hypothesis = prepared.experiment['steady-state-hypothesis']?.probes ?? [];
  // A reference step may carry a name of its own: only the activities it can refer to count.
  const found = [...prepared.experiment.method, ...hypothesis].filter((a) => a.name === ref && !a.ref).at(-1);
  if (!found) throw new Error(`could not find referenced activity '${ref}'`);
  return found;
}

function injectValue(probe: Activity, value: unknown): Activity {
  const args = probe.provider?.arguments;
  if (
    probe.provider?.type === 'python' ||
    (args !== undefined && (typeof args !== 'object' || Array.isArray(args)))
  )
    return probe;
  return { ...probe, provider: { ...probe.provider!, arguments: { ...(args as Json), value } } };
}

interface CallContext {
  safety: Safety;
  signal?: AbortSignal;
  ledger?: RunLedger;
}

async function callProvider(
  activity: Activity,
  prepared: Prepared,
  log: (line: string) => void,
  { safety, signal, ledger }: CallContext,
): Promise<unknown> {
  const { configuration, secrets } = prepared;
  const provider = activity.provider!;
  switch (provider.type) {
    case 'python': {
      // Not resolved beforehand only under --no-validation: the module's problem is this activity's failure.
      const target =
        prepared.activities.get(activity) ??
        (await resolveActivity(String(provider.module), String(provider.func)).catch((err: Error) => {
          throw new Error(`module '${provider.module}' ${err.message}`);
        }));
      const args = substitute(provider.arguments ?? {}, configuration, secrets);
      return target.call(args, {
        secrets: provider.secrets ? secretsFor(secrets, provider.secrets) : {},
        configuration,
        log,
        safety,
        ...(signal ? { signal } : {}),
        ...(ledger ? { ledger } : {}),
      });
    }
    case 'process':
      return runProcess(provider as never, { configuration, secrets, ...(signal ? { signal } : {}) });
    case 'http':
      return runHttp(provider as never, { configuration, secrets, ...(signal ? { signal } : {}) });
    default:
      throw new Error(`unknown provider type ${String(provider.type)}`);
  }
}

async function pause(
  value: unknown,
  when: string,
  prepared: Prepared,
  reporter: Reporter,
  signal?: AbortSignal,
) {
  if (value === undefined) return;
  const seconds = Number(substitute(value, prepared.configuration, prepared.secrets));
  if (!(seconds > 0)) return;
  reporter.info(`Pausing ${when === 'before' ? 'before' : 'after'} activity for ${seconds}s...`);
  await sleep(seconds * 1000, signal).catch(() => undefined);
}

/**
 * What a run's changes left in place, per its record: nothing, and the record goes (there is
 * nothing to revert); otherwise the record stays for `chaoskit revert`.
 */
async function settle(ledger: RunLedger): Promise<string[]> {
  const left: string[] = [];
  for (const cluster of ledger.ledgers()) {
    for (const s of await cluster.settle()) left.push(`${describeRef(s.ref)} (${s.what})`);
  }
  return left;
}
