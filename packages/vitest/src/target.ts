// Which cluster the faults go to: a kubeconfig file and a context in it (what the global setup
// hands the test files), or, given nothing, the environment's, chosen as chaoskit's own
// commands choose it (CLUSTER_CONTEXT, KUBECONFIG, ~/.kube/config).

export interface ChaosTarget {
  /** A kubeconfig file. */
  kubeconfigPath?: string;
  /** The context of that file to use (default: its current context). */
  context?: string;
  /** Where the faults' records are kept (default $CHAOSKIT_LEDGER_NAMESPACE, else `default`). */
  ledgerNamespace?: string;
}

/** The environment the activities choose their cluster from. */
export function envOf(target: ChaosTarget): NodeJS.ProcessEnv {
  if (!target.kubeconfigPath) return process.env;
  // Only these: nothing else of the process's environment may choose another cluster.
  return {
    KUBECONFIG: target.kubeconfigPath,
    ...(target.context ? { CLUSTER_CONTEXT: target.context } : {}),
  };
}
