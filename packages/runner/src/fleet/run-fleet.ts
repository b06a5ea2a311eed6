// A fleet run (D113–D115): one experiment over several kubeconfig contexts, wave after wave,
// at most `parallel` at once within a wave. Each context is a run of its own — its cluster
// chosen from its own environment, its own rails, its own record of changes, its own journal —
// and nothing is shared between them but the interruption: a signal stops every running
// context (each plays its rollbacks) and starts no other. A context whose outcome is not clean
// stops every context not started yet: the rest of its wave and the waves after it.

import { isChaosError } from '@chaoskit/core';
import { newRunId, RunLedger, RunNotes, recordName, redact } from '@chaoskit/core/runner';
import type { Reporter } from '../output/log.js';
import { haltGuard } from '../preflight/halt-guard.js';
import { checkClusters } from '../preflight/preflight.js';
import type { Prepared } from '../prepare/prepare.js';
import { runExitCode } from '../run/exit-codes.js';
import { type RunListener, type RunOptions, runExperiment } from '../run/index.js';
import { iso } from '../run/journal.js';
import type { RunGuard } from '../run/state.js';
import { type ContextChoice, type FleetContext, fleetContexts, recordsNamespaceOf } from './contexts.js';
import {
  aggregateJournal,
  type ContextResult,
  type FleetJournal,
  fleetExitCode,
  whyStop,
} from './outcome.js';
import { splitWaves, type WaveSize } from './waves.js';

export interface FleetOptions extends ContextChoice {
  /** The waves' sizes (`--waves 1,50%,100%`, parseWaves); default one wave of every context. */
  waves?: readonly WaveSize[];
  /** How many contexts of a wave run at once (default 1). */
  parallel?: number;
  /** What each context's run is given, as runExperiment takes it: the same for every context. */
  run?: Omit<RunOptions, 'env' | 'ledger' | 'listeners' | 'signal' | 'rollbackSignal' | 'confirm'>;
  /** Each context's listeners (its log lines, its journal file), given its label. */
  listeners?: (label: string) => RunListener[];
  /**
   * Each context's record of changes (its own run id, in its own cluster), in `namespace`, by
   * default the one the kubeconfig gives the context, else default (D163); false: none.
   */
  ledger?: { namespace?: string | undefined; ttlSeconds: number } | false;
  /** Where each context's cluster keeps the halt lever (D128); default the ledger's namespace. */
  haltNamespace?: string;
  /** Interrupts every running context (each plays its rollbacks); none starts after it. */
  signal?: AbortSignal;
  /** Abandons the rollbacks under way. */
  rollbackSignal?: AbortSignal;
  /** Which signal interrupted the run, for the exit codes (default SIGINT once `signal` aborts). */
  interruptedBy?: () => NodeJS.Signals | undefined;
  /** --fail-on-deviation, for each context's exit code. */
  failOnDeviation?: boolean;
  /** Where the fleet's own lines go (which context starts, which wave stops). */
  reporter?: Reporter;
  /** Where each context's journal is kept, for the aggregate journal. */
  journalPathOf?: (label: string) => string;
}

export interface FleetResult {
  /** Each context's part, in the run's order. */
  contexts: ContextResult[];
  aggregate: FleetJournal;
  /** What `chaoskit run` exits with (D115). */
  exitCode: number;
}

/** Checks every choice (contexts, waves) without a request, then runs the fleet. */
export async function runFleet(prepared: Prepared, options: FleetOptions): Promise<FleetResult> {
  const contexts = fleetContexts(options);
  const waves = splitWaves(options.waves, contexts.length);
  return runWaves(prepared, contexts, waves, options);
}

/** Runs the fleet's waves, the contexts and waves already checked. */
export async function runWaves(
  prepared: Prepared,
  contexts: readonly FleetContext[],
  waves: readonly number[][],
  options: FleetOptions,
): Promise<FleetResult> {
  const start = iso();
  const parallel = Math.max(1, options.parallel ?? 1);
  const results: ContextResult[] = contexts.map((c, i) => ({
    label: c.label,
    wave: waves.findIndex((members) => members.includes(i)) + 1,
    status: 'not-run',
    stopsWaves: false,
  }));
  let stopper: ContextResult | undefined;
  const halted = () =>
    options.signal?.aborted
      ? 'the fleet run was interrupted before it started'
      : stopper
        ? `${stopper.label} (wave ${stopper.wave}) stopped the waves: ${stopper.reason}`
        : undefined;
  for (const [w, members] of waves.entries()) {
    const queue = [...members];
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const why = halted();
        const result = results[i]!;
        if (why) {
          result.reason = why;
          continue;
        }
        options.reporter?.info(`[${result.label}] wave ${w + 1} of ${waves.length}: starting`);
        await runContext(prepared, contexts[i]!, result, options);
        if (result.stopsWaves) stopper ??= result;
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, members.length) }, worker));
    if (stopper?.wave === w + 1 && w + 1 < waves.length)
      options.reporter?.warn(
        `wave ${w + 1} stopped the waves after it: ${stopper.label}: ${stopper.reason}; ${waves.length - w - 1} wave(s) not run`,
      );
  }
  // The title as the runs substituted it, when one ran.
  const title = results.find((r) => r.journal)?.journal?.experiment.title ?? prepared.experiment.title;
  const aggregate = aggregateJournal(String(title), start, results, options.journalPathOf);
  return { contexts: results, aggregate, exitCode: fleetExitCode(results) };
}

/** One context's run: its own record, its own checks, its own cluster; the result filled in. */
async function runContext(
  prepared: Prepared,
  context: FleetContext,
  result: ContextResult,
  options: FleetOptions,
): Promise<void> {
  const recordsIn = recordsNamespaceOf(context, options.ledger ? options.ledger.namespace : undefined);
  const ledger = options.ledger
    ? new RunLedger({
        runId: newRunId(),
        namespace: recordsIn,
        ttlSeconds: options.ledger.ttlSeconds,
        title: String(prepared.experiment.title),
        started: iso(),
      })
    : undefined;
  let halt: RunGuard | undefined;
  try {
    await checkClusters(prepared, {
      ledgerNamespace: ledger?.run.namespace,
      dry: options.run?.dry,
      env: context.env,
      record: ledger?.recordName,
    });
    halt = await haltGuard(prepared, options.haltNamespace ?? recordsIn, {
      dry: options.run?.dry,
      env: context.env,
      ...(ledger ? {} : { unguarded: (line: string) => options.reporter?.warn(`[${result.label}] ${line}`) }),
    });
  } catch (err) {
    const message = isChaosError(err) ? err.message : ((err as Error).message ?? String(err));
    Object.assign(result, {
      status: 'refused',
      exitCode: 3,
      stopsWaves: true,
      reason: `refused before any change: ${redact(message)}`,
    });
    options.reporter?.warn(`[${result.label}] ${result.reason}`);
    return;
  }
  if (ledger)
    options.reporter?.info(
      `[${result.label}] run ${ledger.runId}: its changes are recorded in its cluster (ConfigMap ${recordName(ledger.runId)}, namespace ${ledger.run.namespace}) before they are made; chaoskit status and chaoskit revert ${ledger.runId} with the context's --context find and undo them`,
    );
  const notes = new RunNotes({
    runId: ledger?.runId ?? newRunId(),
    warn: (line) => options.reporter?.warn(`[${result.label}] ${line}`),
  });
  const journal = await runExperiment(prepared, {
    ...options.run,
    env: context.env,
    listeners: options.listeners?.(context.label) ?? [],
    ...(ledger ? { ledger } : {}),
    notes,
    ...(halt ? { guards: [halt] } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.rollbackSignal ? { rollbackSignal: options.rollbackSignal } : {}),
  });
  const signal = options.signal?.aborted ? (options.interruptedBy?.() ?? 'SIGINT') : undefined;
  const exitCode = runExitCode(journal, {
    signal,
    ...(options.failOnDeviation ? { failOnDeviation: true } : {}),
  });
  const reason = whyStop(journal, exitCode);
  Object.assign(result, {
    status: 'ran',
    journal,
    exitCode,
    stopsWaves: reason !== undefined,
    ...(journal.run_id ? { runId: journal.run_id } : {}),
    ...(reason ? { reason } : {}),
  });
}
