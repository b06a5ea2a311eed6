// `chaoskit run`: runs an experiment against the cluster and writes its journal as it goes.
import { createInterface } from 'node:readline/promises';
import { deploymentRecordName, newRunId, RunLedger, RunNotes, redact } from '@chaoskit/core/runner';
import { type Command, Option, type OptionValues } from 'commander';
import { adminClient, choosingActivities, deployClient, useCluster } from '../cluster/choice.js';
import { jobEvents, jobFromEnv } from '../journals/job-events.js';
import { checkJournalRights, claimJournal, clusterJournal } from '../journals/keeper.js';
import { journalName } from '../journals/labels.js';
import { journalSlots } from '../journals/rules.js';
import { Refusal } from '../output/errors.js';
import type { Reporter } from '../output/log.js';
import { checkJournalPath, scratchOf, writeJournal } from '../output/writable.js';
import { haltGuard } from '../preflight/halt-guard.js';
import { checkClusters } from '../preflight/preflight.js';
import { leftoversFirst, ownPod } from '../records/leftovers.js';
import { EXIT, EXIT_SUMMARY, runExitCode, worst } from '../run/exit-codes.js';
import {
  DRY_MODES,
  type DryMode,
  HYPOTHESIS_STRATEGIES,
  type HypothesisStrategy,
  journalWriter,
  jsonOutput,
  logEvents,
  ROLLBACK_STRATEGIES,
  type RollbackStrategy,
  type RunListener,
  runExperiment,
} from '../run/index.js';
import { OLD_SPELLING } from '../settings/runtime.js';
import { handleInterrupts } from '../signals/interrupts.js';
import { parseMetricsPort } from '../telemetry/config.js';
import { withTelemetry } from '../telemetry/telemetry.js';
import { type FleetFlags, isFleet, runFleetCommand, withFleet } from './fleet.js';
import {
  collect,
  type LedgerFlags,
  ledgerNamespace,
  ledgerTtlSeconds,
  RECORDS_DEFAULT,
  withExperimentOptions,
  withVerifyTls,
} from './options.js';
import { prepareRun } from './prepared-experiment.js';
import { fail, session } from './session.js';

/**
 * `--journal-to-cluster`: the listeners that keep the journal in the ledger namespace and write
 * Events on the run's Job (when CHAOSKIT_JOB names one), once their rights are checked.
 */
async function keptInCluster(opts: LedgerFlags, runId: string, reporter: Reporter): Promise<RunListener[]> {
  const namespace = ledgerNamespace(opts);
  const kube = deployClient(opts);
  const job = jobFromEnv(process.env, namespace);
  // A deployment's runs keep their journals in its few, named ConfigMaps (D158).
  const deployment = process.env.CHAOSKIT_EXPERIMENT;
  const count = Number.parseInt(process.env.CHAOSKIT_JOURNAL_SLOTS ?? '', 10);
  const slots = deployment && count > 0 ? journalSlots(deployment, count) : undefined;
  await checkJournalRights(kube, namespace, job !== undefined, slots);
  const name = slots ? await claimJournal(kube, namespace, deployment!, slots) : journalName(runId);
  const journal = clusterJournal({
    kube,
    namespace,
    name,
    runId,
    experiment: deployment,
    warn: (line) => reporter.warn(line),
    job,
  });
  reporter.info(`Run ${runId}: its journal is kept in ConfigMap ${name}, namespace ${namespace}`);
  return [journal.listener, ...(job ? [jobEvents(kube, job, runId, name)] : [])];
}

function runLedger(
  opts: LedgerFlags & { revertLeftoversOf?: string },
  title: string,
  namespace: string,
): RunLedger {
  const pod = ownPod();
  return new RunLedger({
    runId: newRunId(),
    namespace,
    ttlSeconds: ledgerTtlSeconds(opts.ledgerTtl),
    title,
    started: new Date().toISOString(),
    ...(opts.revertLeftoversOf
      ? { deployment: opts.revertLeftoversOf, record: deploymentRecordName(opts.revertLeftoversOf) }
      : {}),
    ...(pod ? { pod } : {}),
  });
}

/** Asks on the terminal, once, before the run's first change. */
async function confirmOnTerminal(change: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${redact(change)}. Go ahead with the run's changes? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/** The options of `run` beside those it shares with other commands. */
function withRunOptions(command: Command): Command {
  withVerifyTls(
    command
      .description('run an experiment (a .json, .yaml or .yml file, or an http(s) URL) and write its journal')
      .argument('<experiment>', 'the experiment file or URL')
      .option('--journal-path <path>', 'where to write the journal', './journal.json')
      .addOption(
        new Option(
          '--rollback-strategy <strategy>',
          "when to play rollbacks (default: the experiment's runtime, the settings', else default)",
        ).choices(ROLLBACK_STRATEGIES),
      )
      .addOption(
        new Option(
          '--hypothesis-strategy <strategy>',
          `when to check the steady-state hypothesis (${OLD_SPELLING}: Chaos Toolkit's old spelling of continuously; default: the experiment's runtime, the settings', else default)`,
        ).choices([...HYPOTHESIS_STRATEGIES, OLD_SPELLING]),
      )
      .option(
        '--hypothesis-frequency <seconds>',
        'seconds between hypothesis checks during the method',
        Number.parseFloat,
        1,
      )
      .addOption(
        new Option(
          '--dry <what>',
          'run without executing these activities (probes, actions, activities), or without the pauses (pause)',
        ).choices(DRY_MODES),
      )
      .option(
        '--fail-fast',
        'stop the method at the first failed activity, or the first deviation of the hypothesis during the method',
      )
      .option('--no-validation', 'run even when validation finds problems (they are printed as warnings)'),
  );
  return command
    .option(
      '--control-file <path>',
      "Chaos Toolkit's global controls: a JSON or YAML mapping of name to control, applied at every level (repeatable)",
      collect,
      [],
    )
    .option('--json', 'log JSON lines on stderr and print the journal on stdout')
    .option(
      '--ledger-namespace <namespace>',
      `where the run's record of its changes is kept (default ${RECORDS_DEFAULT})`,
    )
    .option(
      '--ledger-ttl <duration>',
      "after how long the run's changes count as expired (revert --expired)",
      '24h',
    )
    .option(
      '--no-ledger',
      'keep no record of the changes in the cluster (a killed run then cannot be reverted)',
    )
    .option(
      '--journal-to-cluster',
      'also keep the journal in the cluster, in the ledger namespace (chaoskit journals lists them), and write Events on the Job CHAOSKIT_JOB names',
    )
    .option(
      '--revert-leftovers-of <deployment>',
      'first undo what ended runs of this chaoskit deploy deployment left in place (their pods are gone), and record this run as one of them (deploy passes it)',
    )
    .option('--confirm', "ask on the terminal before the run's first change")
    .option(
      '--metrics-port <port>',
      "serve the run's metrics for Prometheus to scrape on this port (/metrics) while it runs",
      parseMetricsPort,
    )
    .option(
      '--fail-on-deviation',
      'exit 1 also when the steady state is not met before the method (which then does not run) or during it',
    );
}

export function register(program: Command): void {
  withRunOptions(withFleet(withExperimentOptions(program.command('run'))))
    .addHelpText('after', `\nExit codes (chaoskit explain D89): ${EXIT_SUMMARY}`)
    .action(runAction);
}

/** `chaoskit run <experiment>`: one run, or with --contexts a fleet run; the exit code in the session. */
async function runAction(file: string, opts: FleetFlags & OptionValues, command: Command): Promise<void> {
  // Chaos Toolkit's --settings stands before the command (D162).
  opts.settings = command.optsWithGlobals().settings;
  if (isFleet(opts) && opts.journalToCluster) {
    session.exitCode = fail(
      new Error('--journal-to-cluster keeps the journal of one run in its cluster: not of a fleet run'),
      EXIT.usage,
    );
    return;
  }
  if (isFleet(opts)) return runFleetCommand(file, opts);
  // Until the run starts, every refusal leaves everything as it was (exit 3).
  let started = false;
  try {
    if (opts.confirm && !process.stdin.isTTY)
      throw new Refusal(
        '--confirm asks on a terminal, and stdin is not one: review the targets with chaoskit plan, then run without --confirm',
      );
    // Before anything else, the journal's place: an existing journal stays as it is.
    checkJournalPath('--journal-path', opts.journalPath, scratchOf(opts.journalPath));
    const prepared = await prepareRun(file, opts);
    const telemetry = {
      metricsPort: opts.metricsPort,
      tracing: prepared.tracing,
      reporter: session.logger,
    };
    await withTelemetry('chaoskit run', telemetry, async () => {
      // The cluster --context or --kubeconfig name, passed down as a fleet run passes its contexts'.
      const env = useCluster(opts, choosingActivities(prepared));
      const reporter = session.logger;
      // Where the record goes, and the namespace's halt lever: both checked before any request.
      const recordsIn = ledgerNamespace(opts);
      const ledger =
        opts.ledger === false ? undefined : runLedger(opts, prepared.experiment.title, recordsIn);
      await checkClusters(prepared, {
        ledgerNamespace: ledger?.run.namespace,
        dry: opts.dry,
        record: ledger?.recordName,
        runner: ledger?.run.deployment !== undefined,
        ...(env ? { env } : {}),
      });
      // Halted (D128): refused; otherwise the lever is watched while the run goes.
      const halt = await haltGuard(prepared, recordsIn, {
        dry: opts.dry,
        ...(env ? { env } : {}),
        ...(ledger ? {} : { unguarded: (line: string) => reporter.warn(line) }),
      });
      const runId = ledger?.runId ?? newRunId();
      const inCluster = opts.journalToCluster ? await keptInCluster(opts, runId, reporter) : undefined;
      started = true;
      // Installed before leftovers are undone: a pod stopped meanwhile ends without its run.
      const interrupts = handleInterrupts((line) => reporter.warn(line));
      if (opts.revertLeftoversOf) {
        const stop = await leftoversFirst(
          adminClient(opts),
          opts.revertLeftoversOf,
          recordsIn,
          reporter,
        ).catch((err: unknown) => {
          interrupts.dispose();
          throw err;
        });
        if (stop !== undefined || interrupts.received) {
          interrupts.dispose();
          session.exitCode = stop ?? interrupts.exitCode ?? EXIT.sigterm;
          return;
        }
      }
      if (ledger) {
        reporter.info(
          `Run ${ledger.runId}: its changes are recorded (ConfigMap ${ledger.recordName}, namespace ${ledger.run.namespace}) before they are made; chaoskit status and chaoskit revert ${ledger.runId} find and undo them`,
        );
      }
      // The journal is written as the run goes, so a crash loses at most the activity under way.
      const journalFile = journalWriter((text) => writeJournal(opts.journalPath, text));
      const journal = await runExperiment(prepared, {
        rollbackStrategy: opts.rollbackStrategy as RollbackStrategy,
        hypothesisStrategy: opts.hypothesisStrategy as HypothesisStrategy,
        hypothesisFrequency: opts.hypothesisFrequency,
        ...(env ? { env } : {}),
        // What the run says: the log, the journal file, and with --json the journal on stdout.
        listeners: [
          logEvents(reporter),
          journalFile.listener,
          ...(inCluster ?? []),
          ...(opts.json ? [jsonOutput((text) => process.stdout.write(text))] : []),
        ],
        signal: interrupts.run,
        rollbackSignal: interrupts.rollbacks,
        ...(opts.dry ? { dry: opts.dry as DryMode } : {}),
        ...(opts.failFast ? { failFast: true } : {}),
        ...(ledger ? { ledger } : {}),
        // An Event on each object the run changes (D134); a missing right is said once.
        notes: new RunNotes({ runId, warn: (line) => reporter.warn(line) }),
        ...(halt ? { guards: [halt] } : {}),
        ...(opts.confirm ? { confirm: confirmOnTerminal } : {}),
      }).finally(() => interrupts.dispose());
      session.exitCode = runExitCode(journal, {
        signal: interrupts.received,
        failOnDeviation: opts.failOnDeviation,
      });
      if (journal.steady_states.before?.steady_state_met === false && !opts.failOnDeviation)
        reporter.warn(
          'The steady state was not met before the method, so the method did not run: exit code 0 as with Chaos Toolkit, unless something else failed (--fail-on-deviation makes it 1)',
        );
      await journalFile.finished();
      if (!opts.json) reporter.info(`journal written to ${opts.journalPath}`);
    });
  } catch (err) {
    session.exitCode = started ? worst(session.exitCode, fail(err, EXIT.failed)) : fail(err, EXIT.refused);
  }
}
