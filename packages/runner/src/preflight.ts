// What a run needs from its clusters, checked before its first change (D91): every cluster its
// activities reach resolves (kubeconfig, context), accepts the credentials, and — when the run
// keeps a record of its changes — lets the identity do all the record needs in the ledger
// namespace. A wrong context, an expired token or a missing right refuses the run: no journal,
// no change, instead of a failed run found out at its first probe or mid-method.

import { isApiError, isChaosError } from '@chaoskit/core';
import {
  type Connection,
  connectionFor,
  createClusterClient,
  describeRight,
  LEDGER_RULES,
  missingRights,
  rightsOf,
  secretsFor,
  Transport,
  whoAmI,
} from '@chaoskit/core/runner';
import { Refusal } from './errors.js';
import type { Activity, Prepared } from './experiment.js';
import type { DryMode } from './run/index.js';

export interface PreflightOptions {
  /** Where the run's record of its changes is kept; absent: the run keeps none (--no-ledger). */
  ledgerNamespace?: string | undefined;
  dry?: DryMode | undefined;
  /** The environment the clusters are chosen from (a fleet run's context); default the process's. */
  env?: NodeJS.ProcessEnv | undefined;
}

interface Reached {
  source: string;
  activities: string[];
  /** An action of the run changes this cluster (so its record is written there). */
  changes: boolean;
}

const message = (err: unknown) => (isChaosError(err) ? err.message : ((err as Error).message ?? String(err)));

/** The clusters the run's activities reach (those that declare RBAC rules and run), by connection. */
function clustersOf(prepared: Prepared, { dry, env }: PreflightOptions): Map<Connection, Reached> {
  const reached = new Map<Connection, Reached>();
  // What --dry leaves out reaches no cluster.
  const runs = (activity: Activity) =>
    dry !== 'activities' &&
    !(dry === 'actions' && activity.type === 'action') &&
    !(dry === 'probes' && activity.type === 'probe');
  for (const [activity, target] of prepared.activities) {
    if (target.rbac.length === 0 || !runs(activity)) continue;
    const groups = activity.provider?.secrets;
    let connection: Connection;
    let source: string;
    try {
      const client = createClusterClient(
        groups ? secretsFor(prepared.secrets, groups) : {},
        env ? { env } : {},
      );
      connection = connectionFor(client);
      source = client.source;
    } catch (err) {
      throw new Refusal(`activity '${activity.name}' cannot reach a cluster: ${message(err)}`);
    }
    const entry = reached.get(connection) ?? { source, activities: [], changes: false };
    entry.activities.push(String(activity.name));
    entry.changes ||= activity.type === 'action';
    reached.set(connection, entry);
  }
  return reached;
}

/** The clusters an action of the run changes: where the halt lever is watched (D128). */
export function changedClusters(prepared: Prepared, options: PreflightOptions): Connection[] {
  return [...clustersOf(prepared, options)].filter(([, r]) => r.changes).map(([connection]) => connection);
}

/**
 * Refuses (a Refusal saying what to fix) unless every cluster the run reaches accepts its
 * credentials and, where the run changes something and keeps a record, the identity holds every
 * right of the record (core's LEDGER_RULES) in the ledger namespace.
 */
export async function checkClusters(prepared: Prepared, options: PreflightOptions): Promise<void> {
  for (const [connection, reached] of clustersOf(prepared, options)) {
    const kube = new Transport(connection);
    const which = `the cluster of ${reached.activities.length === 1 ? 'activity' : 'activities'} ${reached.activities.map((a) => `'${a}'`).join(', ')} (${reached.source})`;
    let identity: string | undefined;
    try {
      identity = await whoAmI(kube);
    } catch (err) {
      throw new Refusal(
        isApiError(err, 'Unauthorized')
          ? `${which} does not accept the credentials (401 Unauthorized: an expired or revoked token, a certificate from another CA, a wrong password): renew them`
          : `${which} cannot be used: ${message(err)}`,
      );
    }
    if (!reached.changes || options.ledgerNamespace === undefined) continue;
    const namespace = options.ledgerNamespace;
    let missing: Awaited<ReturnType<typeof missingRights>>;
    try {
      missing = await missingRights(kube, rightsOf(LEDGER_RULES, namespace));
    } catch (err) {
      throw new Refusal(`${which}: the rights of the run's record could not be checked: ${message(err)}`);
    }
    if (missing.length === 0) continue;
    const who = identity ? `User "${identity}"` : 'the identity';
    throw new Refusal(
      `${who} may not ${missing.map(describeRight).join(', ')} in namespace '${namespace}', which the run's record of its changes needs (chaoskit status and revert read it): bind there the -ledger Role that chaoskit rbac prints for the experiment, choose another namespace (--ledger-namespace), or run without a record (--no-ledger)`,
    );
  }
}
