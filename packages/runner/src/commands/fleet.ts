// `chaoskit run --contexts a,b,c` (or `--all-contexts`): the run over a fleet of clusters, in
// canary waves (fleet/, D113–D115); `plan` and `validate` take the same contexts (D125). Each
// context's journal is `--journal-path`'s name with the context's place in it
// (journal.context-2.json), the aggregate journal.fleet.json; lines and files call a context by
// its place, never by its name.

import { basename, dirname, extname, join } from 'node:path';
import { redactValue, registerTarget } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { CHOOSERS, choosingActivities } from '../cluster/choice.js';
import { type FleetContext, fleetContexts, parseContextList } from '../fleet/contexts.js';
import { summaryLines } from '../fleet/outcome.js';
import { runWaves } from '../fleet/run-fleet.js';
import { parseWaves, splitWaves, type WaveSize } from '../fleet/waves.js';
import { Refusal } from '../output/errors.js';
import type { Reporter } from '../output/log.js';
import { checkJournalPath, scratchOf, writeJournal } from '../output/writable.js';
import type { Prepared } from '../prepare/prepare.js';
import { EXIT, worst } from '../run/exit-codes.js';
import {
  type DryMode,
  type HypothesisStrategy,
  type JournalWriter,
  journalWriter,
  logEvents,
  type RollbackStrategy,
} from '../run/index.js';
import { handleInterrupts } from '../signals/interrupts.js';
import { withTelemetry } from '../telemetry/telemetry.js';
import { givenRecordsNamespace, ledgerTtlSeconds } from './options.js';
import { prepareRun } from './prepared-experiment.js';
import { fail, session } from './session.js';

/** A count of at least 1. */
function parseParallel(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new InvalidArgumentError(
      '--parallel takes how many contexts run at once: a whole number of at least 1',
    );
  return Number(text);
}

/**
 * --contexts and --all-contexts: `run`, `plan` and `validate` over a fleet. The names typed are
 * shown back in the errors about them, and masked elsewhere (D90).
 */
export function withContexts(
  command: Command,
  what = 'run',
  each = 'a fleet run, one journal per context',
): Command {
  return command
    .option(
      '--contexts <names>',
      `${what} on each of these kubeconfig contexts (a,b,c), in this order: ${each}`,
      parseContextList,
    )
    .option('--all-contexts', `${what} on every context of the kubeconfig (sorted by name): ${each}`)
    .hook('preAction', (_program, action) => {
      for (const name of action.opts().contexts ?? []) registerTarget(name);
    });
}

/** --contexts, --all-contexts, --waves and --parallel, on `run`. */
export function withFleet(command: Command): Command {
  return withContexts(command)
    .option(
      '--waves <sizes>',
      'fleet runs: how many contexts have run after each wave, as counts or percentages, cumulative (1,50%,100%); a wave that does not end clean stops the waves after it',
      parseWaves,
    )
    .option(
      '--parallel <n>',
      'fleet runs: how many contexts of a wave run at once (default 1)',
      parseParallel,
    )
    .hook('preAction', (_program, action) => {
      const opts = action.opts();
      if (!isFleet(opts) && (opts.waves || opts.parallel))
        action.error(
          'error: --waves and --parallel are for a fleet run: give --contexts or --all-contexts too',
        );
    });
}

export const isFleet = (opts: { contexts?: unknown; allContexts?: unknown }) =>
  opts.contexts !== undefined || opts.allContexts === true;

/** `journal.json` → `journal.context-2.json`, `journal.fleet.json`. */
export function fleetJournalPath(journalPath: string, part: string): string {
  const ext = extname(journalPath);
  return join(dirname(journalPath), `${basename(journalPath, ext)}.${part}${ext || '.json'}`);
}

const partOf = (label: string) => label.replace(' ', '-');

/** A reporter whose lines say which context they are about. */
function prefixed(reporter: Reporter, label: string): Reporter {
  return {
    info: (line) => reporter.info(`[${label}] ${line}`),
    warn: (line) => reporter.warn(`[${label}] ${line}`),
    debug: (line) => reporter.debug?.(`[${label}] ${line}`),
  };
}

/** What `run` was given that a fleet run reads (commander's options). */
export interface FleetFlags extends Record<string, unknown> {
  journalPath: string;
  contexts?: string[];
  allContexts?: boolean;
  waves?: WaveSize[];
  parallel?: number;
  context?: string;
  kubeconfig?: string;
  confirm?: boolean;
  ledger?: boolean;
  ledgerNamespace?: string;
  ledgerTtl: string;
  rollbackStrategy: RollbackStrategy;
  hypothesisStrategy: HypothesisStrategy;
  hypothesisFrequency: number;
  dry?: DryMode;
  failFast?: boolean;
  failOnDeviation?: boolean;
  json?: boolean;
  metricsPort?: number;
}

/**
 * The fleet's contexts (checked against the kubeconfig, no request), for an experiment whose
 * activities leave the choice of cluster to the command line.
 */
export function contextsOf(
  prepared: Prepared,
  opts: { contexts?: string[]; allContexts?: boolean; context?: string; kubeconfig?: string },
): FleetContext[] {
  if (opts.context)
    throw new Refusal(
      '--context chooses one cluster and --contexts/--all-contexts several: give one of them',
    );
  const chosen = choosingActivities(prepared);
  if (chosen.length)
    throw new InvalidArgumentError(
      `${chosen.join(', ')} choose${chosen.length === 1 ? 's' : ''} a cluster in ${chosen.length === 1 ? 'its' : 'their'} secrets (${CHOOSERS.join(', ')}): a fleet chooses each context's cluster; give the cluster in one place`,
    );
  return fleetContexts({ contexts: opts.contexts, all: opts.allContexts, kubeconfig: opts.kubeconfig });
}

/** The fleet's checks, before any request: what the options allow, the files, the contexts, the waves. */
async function prepareFleet(file: string, opts: FleetFlags) {
  if (opts.confirm)
    throw new Refusal(
      "--confirm asks before one run's first change; a fleet run has one per context: review with chaoskit plan, then run without --confirm",
    );
  const aggregatePath = fleetJournalPath(opts.journalPath, 'fleet');
  checkJournalPath('--journal-path', aggregatePath, scratchOf(aggregatePath));
  const prepared = await prepareRun(file, opts);
  const contexts = contextsOf(prepared, opts);
  const waves = splitWaves(opts.waves, contexts.length);
  for (const context of contexts) {
    const path = fleetJournalPath(opts.journalPath, partOf(context.label));
    checkJournalPath('--journal-path', path, scratchOf(path));
  }
  // Each context records in its own namespace unless one is named for all (D163).
  const namespace = givenRecordsNamespace(opts.ledgerNamespace, '--ledger-namespace');
  const ledger =
    opts.ledger === false ? (false as const) : { namespace, ttlSeconds: ledgerTtlSeconds(opts.ledgerTtl) };
  return { prepared, contexts, waves, aggregatePath, ledger, namespace };
}

export async function runFleetCommand(file: string, opts: FleetFlags): Promise<void> {
  let fleet: Awaited<ReturnType<typeof prepareFleet>>;
  try {
    fleet = await prepareFleet(file, opts);
  } catch (err) {
    session.exitCode = fail(err, EXIT.refused);
    return;
  }
  const telemetry = {
    metricsPort: opts.metricsPort,
    tracing: fleet.prepared.tracing,
    reporter: session.logger,
  };
  // Only the telemetry's start may fail here (an OTEL_* value refused): nothing ran.
  await withTelemetry('chaoskit run', telemetry, () => runFleet(fleet, opts)).catch((err: unknown) => {
    session.exitCode = fail(err, EXIT.refused);
  });
}

async function runFleet(fleet: Awaited<ReturnType<typeof prepareFleet>>, opts: FleetFlags): Promise<void> {
  const { prepared, contexts, waves, aggregatePath, ledger, namespace } = fleet;
  const reporter = session.logger;
  reporter.info(
    `Fleet run over ${contexts.length} context(s) in ${waves.length} wave(s): ${waves.map((w, i) => `wave ${i + 1}: ${w.map((c) => contexts[c]!.label).join(', ')}`).join('; ')}`,
  );
  const journalOf = (label: string) => fleetJournalPath(opts.journalPath, partOf(label));
  const writers: JournalWriter[] = [];
  const interrupts = handleInterrupts((line) => reporter.warn(line));
  try {
    const result = await runWaves(prepared, contexts, waves, {
      ...(opts.parallel ? { parallel: opts.parallel } : {}),
      run: {
        rollbackStrategy: opts.rollbackStrategy,
        hypothesisStrategy: opts.hypothesisStrategy,
        hypothesisFrequency: opts.hypothesisFrequency,
        ...(opts.dry ? { dry: opts.dry } : {}),
        ...(opts.failFast ? { failFast: true } : {}),
      },
      listeners: (label) => {
        const writer = journalWriter((text) => writeJournal(journalOf(label), text));
        writers.push(writer);
        return [logEvents(prefixed(reporter, label)), writer.listener];
      },
      ledger,
      ...(namespace === undefined ? {} : { haltNamespace: namespace }),
      signal: interrupts.run,
      rollbackSignal: interrupts.rollbacks,
      interruptedBy: () => interrupts.received,
      ...(opts.failOnDeviation ? { failOnDeviation: true } : {}),
      reporter,
      journalPathOf: journalOf,
    });
    session.exitCode = result.exitCode;
    await Promise.all(writers.map((w) => w.finished()));
    const text = `${JSON.stringify(redactValue(result.aggregate), null, 2)}\n`;
    await writeJournal(aggregatePath, text);
    for (const line of summaryLines(result.aggregate)) reporter.info(line);
    if (opts.json) process.stdout.write(text);
    else
      reporter.info(`journals written to ${journalOf('context N')} (one per context) and ${aggregatePath}`);
  } catch (err) {
    session.exitCode = worst(session.exitCode, fail(err, EXIT.failed));
  } finally {
    interrupts.dispose();
  }
}
