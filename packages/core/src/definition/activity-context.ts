// What an activity's `run` receives besides its arguments: who it is, where it reports, and the
// cluster — reached through core's one connection layer, built on first use.

import { clientNodeKubeConfig } from '../auth/client-node.js';
import { type ClusterClient, createClusterClient } from '../auth/cluster-client.js';
import { KubeClient } from '../client/kube-client.js';
import { type PodExec, podExec } from '../client/pod-exec.js';
import { redact, registerSecret } from '../errors/redact.js';
import type { RunNotes } from '../events/notes.js';
import { DEFAULT_SAFETY, Safety, type SafetyOptions } from '../rails/safety.js';
import type { RunLedger } from '../record/ledger.js';
import { connectionFor } from '../transport/connection.js';
import { Transport, type TransportMiddleware } from '../transport/transport.js';
import { planWording } from './plan-wording.js';

export type ActivityKind = 'action' | 'probe';

/** Which activity is running: for its messages, its errors, the record of what it changed. */
export interface ActivityIdentity {
  /** The experiment function name, snake_case (`terminate_pods`). */
  readonly name: string;
  readonly kind: ActivityKind;
  /** The experiment module (`chaoscluster.pod.actions`). */
  readonly module: string;
  /** `module.name`. */
  readonly qualifiedName: string;
}

/** What a caller gives an activity besides its arguments (the runner, or a camelCase export). */
export interface CallOptions {
  /** The merged secrets of the groups the activity lists in `provider.secrets`. */
  secrets?: Record<string, unknown>;
  /** The whole resolved configuration of the experiment. */
  configuration?: Record<string, unknown>;
  signal?: AbortSignal;
  /** Where the activity's log lines go (after `redact`). */
  log?: (message: string) => void;
  /**
   * Plan mode (`chaoskit plan`): select as usual, send every mutation as a server-side dry
   * run, and skip waiting for effects that will not happen.
   */
  dryRun?: boolean;
  /**
   * The safety rails (D74): by default no change in kube-system, kube-public or
   * kube-node-lease, no action on every node, no more than 80 % of a namespace's pods at once.
   */
  safety?: Safety | SafetyOptions;
}

/** What the runner gives besides: the run's record (every change is written to it first). */
export interface RunCallOptions extends CallOptions {
  ledger?: RunLedger;
  /** The run's Events on the objects its changes touch (D134). */
  notes?: RunNotes;
  /** Seen before and after every request the call sends (tracing, counting). */
  middleware?: readonly TransportMiddleware[];
  /**
   * The environment the cluster is chosen from when the secrets do not choose it
   * (`CLUSTER_CONTEXT`, `KUBECONFIG`…): a fleet run gives each context its own. Default: the
   * process's.
   */
  env?: NodeJS.ProcessEnv;
}

/**
 * What an activity's `run` receives. An interface (not a type alias) so that other modules can
 * extend it by declaration merging.
 */
export interface ActivityContext {
  readonly activity: ActivityIdentity;
  secrets: Record<string, unknown>;
  configuration: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Log a message; the text passes through `redact` before it is written anywhere. Say what was
   * done, in the past tense: in plan mode the line is said as what would be done (plan-wording).
   */
  log: (message: string) => void;
  dryRun?: boolean;
  /** The rails this call runs within (the runner's, or the defaults). */
  readonly safety: Safety;
  /**
   * The cluster the secrets point at, as the JSON API: built on first use, for this call (its
   * signal, plan mode, rails and run record) over the process's one connection pool to that
   * cluster. Every change goes through it (`write`), so that each is railed, recorded and undone
   * by `chaoskit revert`.
   */
  readonly kube: KubeClient;
  /** Runs commands in containers of the same cluster, as the same identity (exec over a WebSocket). */
  podExec(): Promise<PodExec>;
  /**
   * What a call this activity makes of another activity is given: the same secrets,
   * configuration, signal, log, plan mode, run record and rails.
   */
  readonly callOptions: RunCallOptions;
}

/** The caller's rails: a run's own object (its confirmation is asked once), or options for one call. */
export function safetyOf(given: Safety | SafetyOptions | undefined): Safety {
  if (given === undefined) return DEFAULT_SAFETY;
  // Recognised by shape: two copies of core may be loaded side by side.
  return typeof (given as Safety).checkNamespace === 'function' ? (given as Safety) : new Safety(given);
}

/** The context of one call: the caller's options, the activity's identity, a lazy client. */
export function buildContext(activity: ActivityIdentity, given: RunCallOptions = {}): ActivityContext {
  const secrets = given.secrets ?? {};
  registerSecretsIn(secrets);
  const sink = given.log;
  let client: ClusterClient | undefined;
  let kube: KubeClient | undefined;
  const resolved = () => {
    client ??= createClusterClient(secrets, given.env ? { env: given.env } : {});
    return client;
  };
  const safety = safetyOf(given.safety);
  // Plan mode says what would happen (plan-wording.ts).
  const word = given.dryRun ? planWording : (message: string) => message;
  const log = (message: string) => sink?.(redact(word(String(message))));
  return {
    activity,
    safety,
    secrets,
    configuration: given.configuration ?? {},
    ...(given.signal ? { signal: given.signal } : {}),
    ...(given.dryRun ? { dryRun: true } : {}),
    log,
    get kube() {
      if (kube) return kube;
      const connection = connectionFor(resolved());
      const middleware = given.middleware ? { middleware: given.middleware } : {};
      kube = new KubeClient(connection, {
        activity: activity.qualifiedName,
        ...(given.signal ? { signal: given.signal } : {}),
        ...(given.dryRun ? { dryRun: true } : {}),
        // One record per run and cluster, shared by the run's calls: no one call's signal.
        ...(given.ledger ? { ledger: given.ledger.for(new Transport(connection, middleware)) } : {}),
        ...(given.notes ? { notes: given.notes.for(new Transport(connection, middleware)) } : {}),
        safety,
        log,
        ...middleware,
      });
      return kube;
    },
    callOptions: { ...given, safety },
    podExec: () => podExec(clientNodeKubeConfig(resolved().config), given.signal),
  };
}

// Secrets given straight to an activity (the camelCase export) must not leak either.
function registerSecretsIn(value: unknown, depth = 0): void {
  if (typeof value === 'string') registerSecret(value);
  else if (depth < 8 && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const inner of Object.values(value)) registerSecretsIn(inner, depth + 1);
  }
}
