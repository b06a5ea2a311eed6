// The option groups that several commands take, each added by one function (`withVars(command)`).
import { sinceSeconds } from '@chaoskit/core';
import { registerTarget, SYSTEM_NAMESPACES } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { checkNamespace } from '../deploy/inputs.js';
import { createLogger } from '../log.js';
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
      session.logger = createLogger({
        json: opts.json === true,
        verbose: opts.verbose === true,
        logFile: opts.logFile,
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

/** -n: the namespace of activities that take `ns` and are not given one (D83). */
export function withNamespace(command: Command): Command {
  return command.option(
    '-n, --namespace <namespace>',
    "the ns of every activity that takes one and is not given one (default: each activity's own, 'default')",
  );
}

/** --context and --kubeconfig: which cluster the command reaches (cluster-choice.ts). */
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

/** Where `status` and `revert` look for the runs' records. */
export const ledgerNamespaceOption = () =>
  new Option('--ledger-namespace <namespace>', "where the runs' records are kept")
    .default(process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default')
    .argParser((value: string) => checkNamespace(value, '--ledger-namespace'));

export interface LedgerFlags {
  ledgerNamespace?: string;
  ledgerTtl: string;
}

/** Where a run keeps its record: --ledger-namespace, else $CHAOSKIT_LEDGER_NAMESPACE, else default. */
export const ledgerNamespace = (opts: { ledgerNamespace?: string }): string =>
  checkNamespace(
    opts.ledgerNamespace ?? process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default',
    opts.ledgerNamespace === undefined ? 'CHAOSKIT_LEDGER_NAMESPACE' : '--ledger-namespace',
  );

/** Where a run keeps its record and when it expires: --ledger-namespace and --ledger-ttl. */
export function ledgerSettings(opts: LedgerFlags): { namespace: string; ttlSeconds: number } {
  const ttlSeconds = sinceSeconds(opts.ledgerTtl);
  if (!ttlSeconds)
    throw new InvalidArgumentError(`--ledger-ttl takes a duration such as 24h or 90m, got ${opts.ledgerTtl}`);
  return {
    namespace: ledgerNamespace(opts),
    ttlSeconds,
  };
}
