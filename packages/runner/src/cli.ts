#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { type AnyActivity, isChaosError, sinceSeconds } from '@chaoskit/core';
import {
  connectionFor,
  contextCount,
  createClusterClient,
  kubeconfigFiles,
  loadKubeconfig,
  maskEnvironmentTargets,
  newRunId,
  RunLedger,
  recordName,
  redact,
  redactValue,
  registerTarget,
  SYSTEM_NAMESPACES,
  secretsFor,
  Transport,
} from '@chaoskit/core/runner';
import { Command, InvalidArgumentError, Option } from 'commander';
import { Refusal } from './errors.js';
import { EXIT, EXIT_SUMMARY, runExitCode, worst } from './exit-codes.js';
import {
  experimentActivities,
  experimentBase,
  loadExperiment,
  type Prepared,
  prepareExperiment,
} from './experiment.js';
import { experimentSchema } from './experiment-format.js';
import { askOnTerminal, buildExperiment, initFlags, renderExperiment } from './init.js';
import { handleInterrupts } from './interrupts.js';
import { createLogger, type Logger } from './log.js';
import { formatPlan, planExperiment } from './plan.js';
import { checkClusters } from './preflight.js';
import { roleFor } from './rbac.js';
import { revert, status } from './record-commands.js';
import { installedActivities, resolveActivity } from './resolve-activity.js';
import {
  DRY_MODES,
  type DryMode,
  type HypothesisStrategy,
  type Journal,
  type RollbackStrategy,
  runExperiment,
} from './run.js';
import { shareOptions } from './shared-options.js';
import { loadVarFiles, parseVar } from './vars.js';
import { RUNNER_VERSION } from './version.js';
import { checkJournalPath } from './writable.js';

/** The lines of a command: stderr, --verbose, --json and --log-file (log.ts). */
let logger: Logger = createLogger();

/** --verbose and --log-file, on the commands that log. */
function withLogging(command: Command): Command {
  return command
    .option(
      '--verbose',
      'also print debug lines: each request to the cluster (method, path, status), results',
    )
    .option(
      '--log-file <path>',
      'append every line, debug included, to this file (redacted as on the terminal)',
    )
    .hook('preAction', (_program, action) => {
      const opts = action.opts();
      logger = createLogger({
        json: opts.json === true,
        verbose: opts.verbose === true,
        logFile: opts.logFile,
      });
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function gatherVars(opts: { var: string[]; varFile: string[] }) {
  const vars = await loadVarFiles(opts.varFile, process.env);
  for (const text of opts.var) {
    try {
      const [key, value] = parseVar(text);
      vars.configuration = { ...vars.configuration, [key]: value };
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  }
  return vars;
}

function runLedger(opts: { ledgerNamespace?: string; ledgerTtl: string }, title: string): RunLedger {
  const ttlSeconds = sinceSeconds(opts.ledgerTtl);
  if (!ttlSeconds)
    throw new InvalidArgumentError(`--ledger-ttl takes a duration such as 24h or 90m, got ${opts.ledgerTtl}`);
  return new RunLedger({
    runId: newRunId(),
    namespace: opts.ledgerNamespace ?? process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default',
    ttlSeconds,
    title,
    started: new Date().toISOString(),
  });
}

/**
 * `--kubeconfig` and `--context`: the environment's choice of cluster replaced, as kubectl's
 * flags replace KUBECONFIG and the current context.
 */
function clusterEnv(opts: { context?: string; kubeconfig?: string }, env = process.env): NodeJS.ProcessEnv {
  return {
    ...env,
    ...(opts.kubeconfig ? { CLUSTERCONFIG: opts.kubeconfig, KUBECONFIG: opts.kubeconfig } : {}),
    ...(opts.context ? { CLUSTER_CONTEXT: opts.context } : {}),
  };
}

/** The cluster of `status` and `revert`: the environment's, with --context and --kubeconfig. */
function adminClient(opts: { context?: string; kubeconfig?: string }): Transport {
  return new Transport(connectionFor(createClusterClient({}, { env: clusterEnv(opts) })));
}

const CHOOSERS = ['CLUSTER_HOST', 'KUBERNETES_HOST', 'CLUSTER_CONTEXT', 'KUBERNETES_CONTEXT'];

/**
 * `run`, `plan` and `call` with --context or --kubeconfig: the activities reach that cluster
 * (their process providers' kubectl too). An activity whose secrets choose a cluster of their
 * own would not: that is refused, rather than reaching a cluster the command line did not name.
 */
function useCluster(opts: { context?: string; kubeconfig?: string }, chosenBySecrets: string[]): void {
  if (!opts.context && !opts.kubeconfig) return;
  if (opts.kubeconfig && !existsSync(opts.kubeconfig))
    throw new Refusal(`--kubeconfig ${opts.kubeconfig} names no file`);
  if (opts.context) {
    // Typed on this command line: shown back (D90); the kubeconfig's own contexts are not.
    const files = kubeconfigFiles(clusterEnv(opts));
    const from = opts.kubeconfig ? `--kubeconfig ${opts.kubeconfig}` : files.from;
    if (files.existing.length === 0)
      throw new Refusal(`--context ${opts.context} needs a kubeconfig, and ${from} names no file`);
    const { contexts } = loadKubeconfig(files.existing);
    if (!contexts.some((c) => c.name === opts.context))
      throw new Refusal(
        `context '${opts.context}' is not in the kubeconfig (${from}), which has ${contextCount(contexts.length)} (kubectl config get-contexts lists them)`,
      );
  }
  if (chosenBySecrets.length)
    throw new InvalidArgumentError(
      `${chosenBySecrets.join(', ')} choose${chosenBySecrets.length === 1 ? 's' : ''} a cluster in ${chosenBySecrets.length === 1 ? 'its' : 'their'} secrets (${CHOOSERS.join(', ')}): --context and --kubeconfig would not apply; give the cluster in one place`,
    );
  Object.assign(process.env, clusterEnv(opts));
  maskEnvironmentTargets();
}

/** The activities of a prepared experiment whose secrets choose a cluster. */
function choosingActivities(prepared: Prepared): string[] {
  const named: string[] = [];
  for (const activity of prepared.activities.keys()) {
    const groups = activity.provider?.secrets;
    if (!Array.isArray(groups)) continue;
    const secrets = secretsFor(prepared.secrets, groups);
    if (CHOOSERS.some((key) => key in secrets)) named.push(`activity '${activity.name}'`);
  }
  return named;
}

/** Where the journal is written before it is renamed over the old one. */
const scratchOf = (path: string) => `${path}.${process.pid}.tmp`;

/** Writes the journal whole or not at all (a new file renamed over the old one); returns its text. */
async function writeJournal(path: string, journal: Journal): Promise<string> {
  const text = `${JSON.stringify(redactValue(journal), null, 2)}\n`;
  const scratch = scratchOf(path);
  await writeFile(scratch, text);
  await rename(scratch, path);
  return text;
}

/** What --context and --kubeconfig said on this command line: shown back in its errors (D90). */
const typed: string[] = [];

function fail(err: unknown, code = 1): number {
  const message = isChaosError(err) ? err.message : ((err as Error).message ?? String(err));
  process.stderr.write(`chaoskit: ${redact(message, { show: typed })}\n`);
  logger.toFile('error', `chaoskit: ${message}`);
  return code;
}

/** A share of pods: 0.5, or 50%. */
function parseShare(text: string): number {
  const percent = text.trim().endsWith('%');
  const value = Number(percent ? text.trim().slice(0, -1) : text) / (percent ? 100 : 1);
  if (!(value > 0 && value <= 1))
    throw new InvalidArgumentError('a share above 0 and at most 1 (0.5), or a percentage (50%)');
  return value;
}

/** The safety rails' options, as run, validate and plan take them (D74). */
function withRails(command: Command): Command {
  return command
    .option(
      '--allow-namespace <namespace>',
      `let actions change this protected namespace (${SYSTEM_NAMESPACES.join(', ')} are; repeatable)`,
      collect,
      [],
    )
    .option('--protect-namespace <namespace>', 'protect this namespace too (repeatable)', collect, [])
    .option('--allow-all-nodes', 'let an action select every node of the cluster (drain, cordon, delete)')
    .option(
      '--max-pod-share <share>',
      "the share of a namespace's pods one action may remove (default 0.8; 1: all)",
      parseShare,
    )
    .option(
      '--skip-control <name>',
      'run without this Python control of the experiment, knowingly: chaoskit cannot load Python (repeatable)',
      collect,
      [],
    );
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

/** --var and --var-file, as run, validate and plan take them. */
function withVars(command: Command): Command {
  return command
    .option('--var <key[:type]=value>', 'set a configuration value (repeatable)', collect, [])
    .option(
      '--var-file <path>',
      'configuration/secrets from a JSON/YAML file, or a .env file (repeatable)',
      collect,
      [],
    );
}

// The activities of `init`, in command-line order.
const init = initFlags();

const program = new Command()
  .name('chaoskit')
  .description('Run Chaos Toolkit-format chaos experiments with chaoskit activities.')
  .version(RUNNER_VERSION)
  .showHelpAfterError()
  .exitOverride()
  // What the environment says about the cluster is masked before any command prints a line.
  .hook('preAction', () => maskEnvironmentTargets());

let exitCode = 0;

/** -n: the namespace of activities that take `ns` and are not given one (D83). */
function withNamespace(command: Command): Command {
  return command.option(
    '-n, --namespace <namespace>',
    "the ns of every activity that takes one and is not given one (default: each activity's own, 'default')",
  );
}

/** The experiment of `run`, `validate` and `plan`, prepared; its warnings said once. */
async function prepareFrom(source: string, opts: Record<string, unknown>): Promise<Prepared> {
  const prepared = await prepareExperiment(
    await loadExperiment(source, (line) => logger.debug(line)),
    await gatherVars(opts as { var: string[]; varFile: string[] }),
    process.env,
    { ...opts, base: experimentBase(source) },
  );
  for (const warning of prepared.warnings) logger.warn(warning);
  return prepared;
}

withCluster(withNamespace(withLogging(withRails(withVars(program.command('run'))))))
  .description('run an experiment (a .json, .yaml or .yml file, or an http(s) URL) and write its journal')
  .argument('<experiment>', 'the experiment file or URL')
  .option('--journal-path <path>', 'where to write the journal', './journal.json')
  .addOption(
    new Option('--rollback-strategy <strategy>', 'when to play rollbacks')
      .choices(['default', 'always', 'never', 'deviated'])
      .default('default'),
  )
  .addOption(
    new Option('--hypothesis-strategy <strategy>', 'when to check the steady-state hypothesis')
      .choices(['default', 'before-method-only', 'after-method-only', 'during-method-only', 'continuously'])
      .default('default'),
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
  .option('--no-validation', 'run even when validation finds problems (they are printed as warnings)')
  .option('--json', 'log JSON lines on stderr and print the journal on stdout')
  .option(
    '--ledger-namespace <namespace>',
    "where the run's record of its changes is kept (default $CHAOSKIT_LEDGER_NAMESPACE, else default)",
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
  .option('--confirm', "ask on the terminal before the run's first change")
  .option(
    '--fail-on-deviation',
    'exit 1 also when the steady state is not met before the method (which then does not run) or during it',
  )
  .addHelpText('after', `\nExit codes (D89): ${EXIT_SUMMARY}`)
  .action(async (file: string, opts) => {
    // Until the run starts, every refusal leaves everything as it was (exit 3).
    let started = false;
    try {
      if (opts.confirm && !process.stdin.isTTY)
        throw new Refusal(
          '--confirm asks on a terminal, and stdin is not one: review the targets with chaoskit plan, then run without --confirm',
        );
      // Before anything else, the journal's place: an existing journal stays as it is.
      checkJournalPath('--journal-path', opts.journalPath, scratchOf(opts.journalPath));
      const prepared = await prepareFrom(file, opts);
      useCluster(opts, choosingActivities(prepared));
      const reporter = logger;
      const ledger = opts.ledger === false ? undefined : runLedger(opts, prepared.experiment.title);
      await checkClusters(prepared, { ledgerNamespace: ledger?.run.namespace, dry: opts.dry });
      started = true;
      if (ledger) {
        reporter.info(
          `Run ${ledger.runId}: its changes are recorded (ConfigMap ${recordName(ledger.runId)}, namespace ${ledger.run.namespace}) before they are made; chaoskit status and chaoskit revert ${ledger.runId} find and undo them`,
        );
      }
      const interrupts = handleInterrupts((line) => reporter.warn(line));
      // The journal is written as the run goes, so a crash loses at most the activity under way.
      const save = (journal: Journal) => writeJournal(opts.journalPath, journal);
      const journal = await runExperiment(prepared, {
        rollbackStrategy: opts.rollbackStrategy as RollbackStrategy,
        hypothesisStrategy: opts.hypothesisStrategy as HypothesisStrategy,
        hypothesisFrequency: opts.hypothesisFrequency,
        reporter,
        signal: interrupts.run,
        rollbackSignal: interrupts.rollbacks,
        onProgress: save,
        ...(opts.dry ? { dry: opts.dry as DryMode } : {}),
        ...(opts.failFast ? { failFast: true } : {}),
        ...(ledger ? { ledger } : {}),
        ...(opts.confirm ? { confirm: confirmOnTerminal } : {}),
      }).finally(() => interrupts.dispose());
      exitCode = runExitCode(journal, { signal: interrupts.received, failOnDeviation: opts.failOnDeviation });
      if (journal.steady_states.before?.steady_state_met === false && !opts.failOnDeviation)
        reporter.warn(
          'The steady state was not met before the method, so the method did not run: exit code 0 as with Chaos Toolkit, unless something else failed (--fail-on-deviation makes it 1)',
        );
      const text = await save(journal);
      if (opts.json) process.stdout.write(text);
      else reporter.info(`journal written to ${opts.journalPath}`);
    } catch (err) {
      exitCode = started ? worst(exitCode, fail(err, EXIT.failed)) : fail(err, EXIT.refused);
    }
  });

withNamespace(withLogging(withRails(withVars(program.command('validate')))))
  .description("check an experiment and every activity's arguments, without touching the cluster")
  .argument('<experiment>', 'the experiment file or URL')
  .action(async (file: string, opts) => {
    try {
      await prepareFrom(file, opts);
      process.stdout.write('experiment syntax and semantic look valid\n');
    } catch (err) {
      exitCode = fail(err);
    }
  });

withCluster(withNamespace(withLogging(withRails(withVars(program.command('plan'))))))
  .description('show what every action would touch, with server-side dry runs: nothing changes')
  .argument('<experiment>', 'the experiment file or URL')
  .option('--json', 'print the plan as JSON')
  .action(async (file: string, opts) => {
    try {
      const prepared = await prepareFrom(file, opts);
      useCluster(opts, choosingActivities(prepared));
      const plan = await planExperiment(prepared, (line) => (opts.json ? logger.debug : logger.info)(line));
      process.stdout.write(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
      if (plan.some((p) => p.failed)) exitCode = 1;
    } catch (err) {
      exitCode = fail(err);
    }
  });

program
  .command('discover')
  .description('list every installed activity with its arguments, types, defaults and docs')
  .option('--json', "print JSON (with each activity's JSON Schema)")
  .action(async (opts: { json?: boolean }) => {
    const { activities, aliases, packages, missing, problems } = await installedActivities();
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify(
          {
            chaoskit: RUNNER_VERSION,
            activities: activities.map((a) => describe(a)),
            aliases: aliases.map((a) => ({
              module: a.module,
              name: a.name,
              activity: a.activity.qualifiedName,
            })),
            packages: packages.map((p) => ({ name: p.name, version: p.version, modules: p.modules })),
            not_installed: missing,
            problems,
          },
          null,
          2,
        )}\n`,
      );
      return;
    }
    for (const a of activities) {
      process.stdout.write(
        `${a.qualifiedName} (${a.kind})${a.deprecated ? ' [deprecated]' : ''}\n  ${a.doc}\n`,
      );
      for (const arg of a.arguments) {
        const dflt = 'default' in arg ? ` = ${JSON.stringify(arg.default)}` : ' (required)';
        process.stdout.write(`    ${arg.name}: ${arg.accepted}${dflt}\n`);
      }
    }
    if (aliases.length) {
      process.stdout.write('\nalso found as (the same activity under another module or name):\n');
      for (const a of aliases) process.stdout.write(`${a.qualifiedName} → ${a.activity.qualifiedName}\n`);
    }
    const extensions = packages.filter((p) => !p.name.startsWith('@chaoskit/'));
    if (extensions.length)
      process.stdout.write(
        `\nextensions: ${extensions.map((p) => `${p.name}@${p.version} (${p.modules.join(', ')})`).join('; ')}\n`,
      );
    if (missing.length) process.stdout.write(`\nnot installed: ${missing.join(', ')}\n`);
    for (const p of problems) process.stdout.write(`\nnot loaded: ${p.package}: ${p.problem}\n`);
  });

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

program
  .command('info')
  .description("what is installed, as `chaos info` shows it: versions and each activity package's modules")
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const { packages, missing, problems } = await installedActivities();
    const info = {
      chaoskit: RUNNER_VERSION,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      packages: packages.map((p) => ({
        name: p.name,
        version: p.version,
        dir: p.dir,
        modules: p.modules,
        activities: p.activities.length,
        aliases: p.aliases.length,
      })),
      not_installed: missing,
      problems,
    };
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
      return;
    }
    const lines = [`chaoskit ${info.chaoskit} on Node ${info.node} (${info.platform})`, ''];
    for (const p of info.packages)
      lines.push(
        `${p.name}@${p.version}: ${count(p.activities, 'activity', 'activities')}${p.aliases ? `, ${count(p.aliases, 'alias', 'aliases')}` : ''} in ${p.modules.join(', ')}`,
        `  ${p.dir}`,
      );
    if (missing.length) lines.push('', `not installed: ${missing.join(', ')}`);
    for (const p of problems) lines.push('', `not loaded: ${p.package}: ${p.problem}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  });

program
  .command('schema')
  .description(
    "print the JSON Schema of experiment files, with every installed activity's arguments (for editors)",
  )
  .action(async () => {
    const { activities, aliases } = await installedActivities();
    process.stdout.write(`${JSON.stringify(experimentSchema([...activities, ...aliases]), null, 2)}\n`);
  });

function withCluster(command: Command): Command {
  return command
    .option(
      '--context <name>',
      'the kubeconfig context (default: CLUSTER_CONTEXT, KUBERNETES_CONTEXT, the current one)',
    )
    .option('--kubeconfig <path>', 'the kubeconfig file (default: CLUSTERCONFIG, KUBECONFIG, ~/.kube/config)')
    .hook('preAction', (_program, action) => {
      // They select a cluster: masked in every line from the start, as the environment's are,
      // but in the errors about them.
      for (const value of [action.opts().context, action.opts().kubeconfig]) {
        registerTarget(value);
        if (typeof value === 'string') typed.push(value);
      }
    });
}

const ledgerNamespaceOption = () =>
  new Option('--ledger-namespace <namespace>', "where the runs' records are kept").default(
    process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default',
  );

const io = {
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
};

withCluster(program.command('status'))
  .description('list the runs whose recorded changes are still in place, and what each changed')
  .addOption(ledgerNamespaceOption())
  .option('-A, --all-namespaces', 'look for records in every namespace')
  .option('--json', 'print JSON')
  .action(async (opts) => {
    try {
      exitCode = await status(
        adminClient(opts),
        {
          namespace: opts.allNamespaces ? null : opts.ledgerNamespace,
          ledgerNamespace: opts.ledgerNamespace,
          json: opts.json === true,
        },
        { out: (text) => io.out(opts.json ? text : redact(text)), err: io.err },
      );
    } catch (err) {
      exitCode = fail(err);
    }
  });

withCluster(program.command('revert'))
  .description("undo a run's recorded changes (those still in place), refusing objects changed since")
  .argument('[run-id]', 'the run (chaoskit status lists them)')
  .option(
    '--expired',
    'revert every run whose changes have expired (--ledger-ttl of its run); asks first on a terminal',
  )
  .option('--force', 'also overwrite objects someone changed since the run')
  .option(
    '--allow-kind <plural.group>',
    'let the revert change objects of this kind that carries privilege (clusterrolebindings.rbac.authorization.k8s.io, namespaces, secrets …; repeatable)',
    collect,
    [],
  )
  .option(
    '--dismiss',
    "remove the run's record without undoing anything (after showing what it leaves in place)",
  )
  .option('-y, --yes', 'do not ask (revert --expired, --dismiss)')
  .addOption(ledgerNamespaceOption())
  .action(async (runId: string | undefined, opts) => {
    try {
      if (!runId && !opts.expired) throw new InvalidArgumentError('give a run id, or --expired');
      if (opts.dismiss && !runId) throw new InvalidArgumentError('--dismiss takes a run id');
      exitCode = await revert(
        adminClient(opts),
        runId,
        {
          namespace: opts.ledgerNamespace,
          expired: opts.expired === true,
          force: opts.force === true,
          allowKind: opts.allowKind,
          dismiss: opts.dismiss === true,
          yes: opts.yes === true,
        },
        { out: (text) => io.out(redact(text)), err: (text) => io.err(redact(text)) },
      );
    } catch (err) {
      exitCode = fail(err);
    }
  });

program
  .command('rbac')
  .description(
    'print the Role (or ClusterRole) that experiments or activities (module.func) need, from their definitions',
  )
  .argument('<targets...>', 'experiment files, or activities as module.func (chaosk8s names too)')
  .option('--name <name>', 'the name of the role', 'chaoskit')
  .action(async (targets: string[], opts: { name: string }) => {
    try {
      const found: AnyActivity[] = [];
      for (const target of targets) {
        if (/\.(json|ya?ml)$/i.test(target)) {
          found.push(...(await experimentActivities(await loadExperiment(target))));
        } else {
          const cut = target.lastIndexOf('.');
          if (cut <= 0) throw new Error(`${target}: an experiment file or an activity as module.func`);
          const [module, func] = [target.slice(0, cut), target.slice(cut + 1)];
          found.push(
            await resolveActivity(module, func).catch((err: Error) => {
              throw new Error(`module '${module}' ${err.message}`);
            }),
          );
        }
      }
      process.stdout.write(roleFor(found, opts.name).yaml);
    } catch (err) {
      exitCode = fail(err);
    }
  });

withCluster(withNamespace(withLogging(program.command('call'))))
  .description('run one activity and print its result as JSON (for process providers and scripts)')
  .argument('<module>', 'e.g. chaoscluster.pod.actions')
  .argument('<func>', 'e.g. terminate_pods')
  .option('--arguments <json>', 'the arguments, as a JSON object', '{}')
  .option('--secrets <json>', 'the secrets, as a flat JSON object (CLUSTER_CONTEXT, …)', '{}')
  .action(async (module: string, func: string, opts) => {
    try {
      const activity = await resolveActivity(module, func).catch((err: Error) => {
        throw new Error(`module '${module}' ${err.message}`);
      });
      const args = parseJson(opts.arguments, '--arguments');
      const secrets = parseJson(opts.secrets, '--secrets');
      if (opts.namespace && !('ns' in args) && activity.arguments.some((a) => a.name === 'ns'))
        args.ns = opts.namespace;
      useCluster(opts, CHOOSERS.some((key) => key in secrets) ? ['--secrets'] : []);
      const result = await activity.call(args, { secrets, log: (line) => logger.info(line) });
      process.stdout.write(`${JSON.stringify(redactValue(result ?? null))}\n`);
    } catch (err) {
      exitCode = fail(err);
    }
  });

program
  .command('init')
  .description(
    'scaffold an experiment from the installed activities: asked on a terminal, or from the flags below',
  )
  .option('--experiment-path <path>', 'where to write it (.yaml, .yml: YAML; else JSON)')
  .option('--title <title>', "the experiment's title (without it, init asks on the terminal)")
  .option('--description <text>', 'what the experiment checks')
  .option(
    '--probe <module.func>',
    'a steady-state probe (repeatable; --arg and --tolerance follow it)',
    init.probe,
  )
  .option(
    '--activity <module.func>',
    'a method activity (repeatable; --arg and --background follow it)',
    init.activity,
  )
  .option('--rollback <module.func>', 'a rollback action (repeatable; --arg follows it)', init.rollback)
  .option('--arg <key=value>', 'an argument of the activity before it (a JSON value, or text)', init.arg)
  .option('--tolerance <value>', 'the tolerance of the probe before it (JSON; default true)', init.tolerance)
  .option('--background', 'run the activity before it in the background', init.background)
  .option('--force', 'overwrite the file if it exists')
  .action(async (opts) => {
    try {
      let scaffold: Parameters<typeof buildExperiment>[0];
      let path: string = opts.experimentPath ?? './experiment.json';
      if (opts.title === undefined) {
        if (!process.stdin.isTTY)
          throw new InvalidArgumentError(
            'init asks on a terminal, and stdin is not one: give --title, --description and the activities as flags',
          );
        const { activities } = await installedActivities();
        const answers = await askOnTerminal(
          activities,
          path,
          (there) =>
            opts.force || !existsSync(there) || `${there} exists; choose another path (or run with --force)`,
        );
        ({ path } = answers);
        scaffold = answers;
      } else {
        if (!opts.description) throw new InvalidArgumentError('--title needs --description too');
        scaffold = { title: opts.title, description: opts.description, activities: init.activities };
      }
      const experiment = await buildExperiment(scaffold);
      // What is written passes validate (D74's rails included).
      await prepareExperiment(structuredClone(experiment), {}, process.env);
      if (existsSync(path) && !opts.force)
        throw new InvalidArgumentError(`${path} exists; choose another --experiment-path, or --force`);
      await writeFile(path, renderExperiment(experiment, path));
      process.stderr.write(`Experiment created and saved in '${path}' (chaoskit validate ${path})\n`);
    } catch (err) {
      exitCode = fail(err);
    }
  });

program
  .command('report')
  .description(
    'write an HTML report (and Markdown) of journals: timeline, what actions touched, probes, comparison',
  )
  .argument('<journals...>', "journal files (chaoskit's or Chaos Toolkit's)")
  .option('--output <path>', 'where to write the HTML report', './report.html')
  .option('--markdown <path>', 'also write the report as Markdown')
  .action(async (files: string[], opts: { output: string; markdown?: string }) => {
    try {
      // Loaded here: the charting library is needed by this command only (and is optional).
      const { writeReport } = await import('./report/write-report.js');
      const warn = (line: string) => process.stderr.write(`chaoskit report: ${line}\n`);
      const model = await writeReport(files, { ...opts, warn });
      process.stderr.write(
        `report of ${model.runs.length} journal(s) written to ${opts.output}${opts.markdown ? ` and ${opts.markdown}` : ''}\n`,
      );
    } catch (err) {
      exitCode = fail(err);
    }
  });

function parseJson(text: string, option: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw new Error(`${option} takes a JSON object, got ${text}`);
}

function describe(a: AnyActivity) {
  return {
    module: a.module,
    name: a.name,
    type: a.kind,
    doc: a.doc,
    deprecated: a.deprecated,
    arguments: a.arguments,
    schema: a.jsonSchema(),
  };
}

shareOptions(program, ['--namespace', '--context', '--kubeconfig', '--verbose', '--log-file']);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const code = (err as { exitCode?: number }).exitCode;
  // A Refusal here: a --log-file that cannot be written, before any command ran.
  if (err instanceof Refusal) exitCode = fail(err, EXIT.refused);
  else exitCode = code === undefined ? fail(err) : code === 0 ? EXIT.ok : EXIT.usage;
}
process.exitCode = exitCode;
