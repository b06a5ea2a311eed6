// Which cluster a command reaches: the environment's, unless --context or --kubeconfig name
// another, as kubectl's flags replace KUBECONFIG and the current context.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeClient } from '@chaoskit/core';
import {
  connectionFor,
  contextCount,
  createClusterClient,
  DEFAULT_SERVICE_ACCOUNT_DIR,
  kubeconfigFiles,
  loadKubeconfig,
  maskEnvironmentTargets,
  secretsFor,
  Transport,
} from '@chaoskit/core/runner';
import { InvalidArgumentError } from 'commander';
import { Refusal } from '../output/errors.js';
import type { Prepared } from '../prepare/prepare.js';

/** The environment, with --kubeconfig and --context in place of its own choice of cluster. */
export function clusterEnv(
  opts: { context?: string; kubeconfig?: string },
  env = process.env,
): NodeJS.ProcessEnv {
  return {
    ...env,
    ...(opts.kubeconfig ? { CLUSTERCONFIG: opts.kubeconfig, KUBECONFIG: opts.kubeconfig } : {}),
    ...(opts.context ? { CLUSTER_CONTEXT: opts.context } : {}),
  };
}

/**
 * The namespace kubectl would default to on the cluster `env` chooses (D163): the one its
 * kubeconfig context names (CLUSTER_CONTEXT, KUBERNETES_CONTEXT, else the current context), or
 * inside a pod without a kubeconfig, the pod's own; undefined when there is none, or the
 * kubeconfig cannot be read (the command's client then says why).
 */
export function contextNamespace(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const files = kubeconfigFiles(env);
  if (files.existing.length === 0) {
    if (env.RUNNER_IN_POD !== 'true' && env.CHAOSTOOLKIT_IN_POD !== 'true') return undefined;
    const dir = env.CHAOSKIT_SERVICE_ACCOUNT_DIR ?? DEFAULT_SERVICE_ACCOUNT_DIR;
    try {
      return readFileSync(join(dir, 'namespace'), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const kubeconfig = loadKubeconfig(files.existing);
    const name = env.CLUSTER_CONTEXT ?? env.KUBERNETES_CONTEXT ?? kubeconfig.currentContext;
    return kubeconfig.contexts.find((c) => c.name === name)?.namespace;
  } catch {
    return undefined;
  }
}

/** The cluster of `status` and `revert`: the environment's, with --context and --kubeconfig. */
export function adminClient(opts: { context?: string; kubeconfig?: string }): Transport {
  return new Transport(connectionFor(createClusterClient({}, { env: clusterEnv(opts) })));
}

/**
 * The client of `deploy` and `undeploy`: core's write chain without a run's record or rails
 * (their writes are not chaos); with `dryRun`, every write a server-side dry run.
 */
export function deployClient(opts: { context?: string; kubeconfig?: string }, dryRun = false): KubeClient {
  return new KubeClient(connectionFor(createClusterClient({}, { env: clusterEnv(opts) })), { dryRun });
}

/** The secrets that choose a cluster. */
export const CHOOSERS = ['CLUSTER_HOST', 'KUBERNETES_HOST', 'CLUSTER_CONTEXT', 'KUBERNETES_CONTEXT'];

/**
 * `run`, `plan`, `validate` and `call` with --context or --kubeconfig: the environment their
 * activities reach that cluster from (their process providers' kubectl too), passed down as a
 * fleet run passes each context's; undefined without them (the process's own). An activity whose
 * secrets choose a cluster of their own would not reach it: that is refused, rather than reaching
 * a cluster the command line did not name.
 */
export function useCluster(
  opts: { context?: string; kubeconfig?: string },
  chosenBySecrets: string[],
): NodeJS.ProcessEnv | undefined {
  if (!opts.context && !opts.kubeconfig) return undefined;
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
  const env = clusterEnv(opts);
  maskEnvironmentTargets(env);
  return env;
}

/** The activities of a prepared experiment whose secrets choose a cluster. */
export function choosingActivities(prepared: Prepared): string[] {
  const named: string[] = [];
  for (const activity of prepared.activities.keys()) {
    const groups = activity.provider?.secrets;
    if (!Array.isArray(groups)) continue;
    const secrets = secretsFor(prepared.secrets, groups);
    if (CHOOSERS.some((key) => key in secrets)) named.push(`activity '${activity.name}'`);
  }
  return named;
}
