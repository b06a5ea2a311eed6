// The option groups that several commands take, each added by one function (`withVars(command)`).
import { sinceSeconds } from '@chaoskit/core';
import { registerTarget, SYSTEM_NAMESPACES } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { clusterEnv, contextNamespace } from '../cluster/choice.js';
import { checkNamespace } from '../deploy/inputs.js';
import { createLogger } from '../output/log.js';
import { session } from './session.js';

/** A repeatable option's values, in command-line order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** --verbose and --log-file, on the commands that log. */
export function withLogging(command: Command): Command {
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
      // Chaos Toolkit's --log-format and --log-file-level stand before the command (D162).
      const { logFormat, logFileLevel } = action.optsWithGlobals();
      session.logger = createLogger({
        json: opts.json === true || logFormat === 'json',
        verbose: opts.verbose === true,
        logFile: opts.logFile,
        ...(logFileLevel ? { fileLevel: logFileLevel === 'warning' ? 'warn' : logFileLevel } : {}),
      });
    });
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
export function withRails(command: Command): Command {
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

/** --var and --var-file, as run, validate and plan take them. */
export function withVars(command: Command): Command {
  return command
    .option('--var <key[:type]=value>', 'set a configuration value (repeatable)', collect, [])
    .option(
      '--var-file <path>',
      'configuration/secrets from a JSON/YAML file, or a .env file (repeatable)',
      collect,
      [],
    );
}

/**
 * Chaos Toolkit's --no-verify-tls (D162), taken so that its command lines run: there is nothing
 * to turn off for a file or an http URL, and an https URL read unverified is refused
 * (prepared-experiment.ts).
 */
export function withVerifyTls(command: Command): Command {
  return command.option(
    '--no-verify-tls',
    "Chaos Toolkit's: nothing to turn off for a file or http URL; refused for an https URL (D162: NODE_EXTRA_CA_CERTS trusts its CA)",
  );
}

/** -n: the namespace of activities that take `ns` and are not given one (D83). */
export function withNamespace(command: Command): Command {
  return command.option(
    '-n, --namespace <namespace>',
    "the ns of every activity that takes one and is not given one (default: each activity's own, 'default')",
  );
}

/** --context and --kubeconfig: which cluster the command reaches (cluster/choice.ts). */
export function withCluster(command: Command): Command {
  return command
    .option(
      '--context <name>',
      'the kubeconfig context (default: CLUSTER_CONTEXT, KUBERNETES_CONTEXT, the current one)',
    )
    .option('--kubeconfig <path>', 'the kubeconfig file (default: CLUSTERCONFIG, KUBECONFIG, ~/.kube/config)')
    .hook('preAction', (_program, action) => {
      // They select a cluster: masked in every line from the start, as the environment's are,
      // but in the error line that ends the command (D90).
      for (const value of [action.opts().context, action.opts().kubeconfig]) registerTarget(value);
    });
}

/**
 * What every command that reads an experiment for a cluster takes (run, plan, validate): --var
 * and --var-file, the rails, the log, -n, and --context and --kubeconfig.
 */
export function withExperimentOptions(command: Command): Command {
  return withCluster(withNamespace(withLogging(withRails(withVars(command)))));
}

interface ClusterFlags {
  context?: string;
  kubeconfig?: string;
}

/** A records namespace given on the command line (by `option`), else by $CHAOSKIT_LEDGER_NAMESPACE; checked. */
export function givenRecordsNamespace(
  given: string | undefined,
  option: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (given !== undefined) return checkNamespace(given, option);
  const variable = env.CHAOSKIT_LEDGER_NAMESPACE;
  return variable === undefined ? undefined : checkNamespace(variable, 'CHAOSKIT_LEDGER_NAMESPACE');
}

/**
 * The namespace of the runs' records (and of the journals runs keep): `given` on the command
 * line (by `option`), else $CHAOSKIT_LEDGER_NAMESPACE, else the namespace of the kubeconfig
 * context the command uses, as kubectl defaults to it, else default (D163). Checked before any
 * request, naming where it came from.
 */
export function recordsNamespace(
  given: string | undefined,
  option: string,
  opts: ClusterFlags,
  env: NodeJS.ProcessEnv = clusterEnv(opts),
): string {
  return givenRecordsNamespace(given, option, env) ?? contextOrDefault(env);
}

/** The namespace of the kubeconfig context the command uses, as kubectl defaults to it, else default; checked. */
function contextOrDefault(env: NodeJS.ProcessEnv): string {
  const own = contextNamespace(env);
  return own === undefined ? 'default' : checkNamespace(own, "the kubeconfig context's namespace");
}

/**
 * The namespace of `deploy` and `undeploy`: -n (checked here: it may stand before the command,
 * where the program takes it as it is), else the context's, else default (D163).
 */
export const deploymentNamespace = (opts: ClusterFlags & { namespace?: string }): string =>
  opts.namespace !== undefined ? checkNamespace(opts.namespace) : contextOrDefault(clusterEnv(opts));

export const RECORDS_DEFAULT =
  "$CHAOSKIT_LEDGER_NAMESPACE, else the kubeconfig context's namespace, else default";

/** -n and --ledger-namespace of `status` and `revert`: two names of where the runs' records are. */
export function withLedgerNamespace(command: Command): Command {
  return command
    .option(
      '-n, --namespace <namespace>',
      `where the runs' records are kept (default ${RECORDS_DEFAULT})`,
      (value: string) => checkNamespace(value),
    )
    .option('--ledger-namespace <namespace>', 'the same as -n, as run names it', (value: string) =>
      checkNamespace(value, '--ledger-namespace'),
    );
}

/** The namespace `status` and `revert` read: -n or --ledger-namespace (not two different ones). */
export function ledgerNamespaceOf(
  opts: ClusterFlags & { namespace?: string; ledgerNamespace?: string },
): string {
  const { namespace, ledgerNamespace: long } = opts;
  if (namespace !== undefined && long !== undefined && namespace !== long)
    throw new InvalidArgumentError(
      `-n '${checkNamespace(namespace)}' and --ledger-namespace '${checkNamespace(long, '--ledger-namespace')}' name two namespaces: give one`,
    );
  return namespace !== undefined
    ? recordsNamespace(namespace, '-n/--namespace', opts)
    : recordsNamespace(long, '--ledger-namespace', opts);
}

export interface LedgerFlags extends ClusterFlags {
  ledgerNamespace?: string;
  ledgerTtl: string;
}

/** Where a run keeps its record: --ledger-namespace, else as recordsNamespace says. */
export const ledgerNamespace = (opts: ClusterFlags & { ledgerNamespace?: string }): string =>
  recordsNamespace(opts.ledgerNamespace, '--ledger-namespace', opts);

/** --ledger-ttl in seconds: a duration such as 24h or 90m. */
export function ledgerTtlSeconds(text: string): number {
  const seconds = sinceSeconds(text);
  if (!seconds)
    throw new InvalidArgumentError(`--ledger-ttl takes a duration such as 24h or 90m, got ${text}`);
  return seconds;
}
