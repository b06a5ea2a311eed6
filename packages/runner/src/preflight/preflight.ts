// What a run needs from its clusters, checked before its first change (D91, D124): every
// cluster its activities reach resolves (kubeconfig, context), accepts the credentials, lets the
// identity do what each activity that runs declares it needs, where its arguments point it, and
// — when the run keeps a record of its changes — all the record needs in the ledger namespace.
// A wrong context, an expired token or a missing right refuses the run: no journal, no change,
// instead of a failed run found out at its first probe or mid-method.

import { type AnyActivity, isApiError, type RbacRule } from '@chaoskit/core';
import {
  type Connection,
  connectionFor,
  createClusterClient,
  describeRight,
  LEDGER_KEY_SECRET,
  ledgerRules,
  missingRights,
  noOperatorsKey,
  type Right,
  readLedgerKey,
  rightsOf,
  runnerKeyName,
  secretsFor,
  serviceAccountOf,
  Transport,
  unmaskedMessage,
  whoAmI,
} from '@chaoskit/core/runner';
import { Refusal } from '../output/errors.js';
import type { Activity, Prepared } from '../prepare/prepare.js';
import { rightsOfCall } from '../rbac/rbac.js';
import type { DryMode } from '../run/index.js';
import { argumentsOf } from '../run/invoke.js';

export interface PreflightOptions {
  /** Where the run's record of its changes is kept; absent: the run keeps none (--no-ledger). */
  ledgerNamespace?: string | undefined;
  dry?: DryMode | undefined;
  /** The environment the clusters are chosen from (a fleet run's context); default the process's. */
  env?: NodeJS.ProcessEnv | undefined;
  /** The record's ConfigMap (a deployed runner may change its deployment's alone, D158). */
  record?: string | undefined;
  /** The run is a deployment's (--revert-leftovers-of): it seals with its runner's key. */
  runner?: boolean | undefined;
}

interface Reached {
  source: string;
  activities: string[];
  /** An action of the run changes this cluster (so its record is written there). */
  changes: boolean;
  /** What each activity's call needs there, by activity. */
  needs: Array<{ activity: string; rights: Right[] }>;
}

// Written whole: the refusal is printed on the terminal as the line that ends the command, where
// the user's own values are shown (fail), and masked everywhere else (D90).
const message = (err: unknown) => unmaskedMessage(err);

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
    const entry = reached.get(connection) ?? { source, activities: [], changes: false, needs: [] };
    entry.activities.push(String(activity.name));
    entry.changes ||= activity.type === 'action';
    const rights = rightsOfActivity(activity, target, prepared);
    if (rights.length) entry.needs.push({ activity: String(activity.name), rights });
    reached.set(connection, entry);
  }
  return reached;
}

/** An activity's rights with its arguments as the run gives them; none when they are refused (--no-validation). */
function rightsOfActivity(activity: Activity, target: AnyActivity, prepared: Prepared): Right[] {
  try {
    return rightsOfCall(target, target.validate(argumentsOf(activity, prepared).args));
  } catch {
    return []; // the activity fails at its turn, saying why, before any request of its own
  }
}

const key = (right: Right) => JSON.stringify(right);
const where = (right: Right) => (right.namespace ? `in namespace '${right.namespace}'` : 'cluster-wide');

/** `patch deployments.apps in namespace 'shop' (activity 'scale')`, one per activity and namespace. */
function describeMissing(needs: Reached['needs'], missing: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  for (const { activity, rights } of needs) {
    const byPlace = new Map<string, string[]>();
    for (const right of rights.filter((r) => missing.has(key(r)))) {
      const place = where(right);
      byPlace.set(place, [...new Set([...(byPlace.get(place) ?? []), describeRight(right)])]);
    }
    for (const [place, described] of byPlace)
      lines.push(`${described.join(', ')} ${place} (activity '${activity}')`);
  }
  return [...new Set(lines)];
}

/**
 * The rights of the run's record `record` (asked by its name, when the run has one): sealed with
 * its runner's own key when it is a deployment's run (as keyForRun seals it), else with the
 * operators'.
 */
function recordRules(
  namespace: string,
  identity: string | undefined,
  record: string | undefined,
  runner: boolean,
): { rules: RbacRule[]; key: string } {
  const own = record ? [record] : undefined;
  const account = identity ? serviceAccountOf(identity) : undefined;
  if (runner && account?.namespace === namespace) {
    const key = runnerKeyName(account.name);
    return { rules: ledgerRules(key, own), key };
  }
  return { rules: ledgerRules(LEDGER_KEY_SECRET, own), key: LEDGER_KEY_SECRET };
}

/**
 * Why the run could not seal its record, when its key is not there: a runner's is made by
 * deploy; the operators' by the first run of an identity that may create Secrets there.
 */
async function missingKey(kube: Transport, namespace: string, key: string): Promise<string | undefined> {
  if (await readLedgerKey(kube, namespace, key)) return undefined;
  if (key !== LEDGER_KEY_SECRET)
    return `the runner's key (Secret ${key} in namespace '${namespace}') is gone: chaoskit deploy makes it again`;
  const create = { verb: 'create', group: '', resource: 'secrets', namespace };
  if ((await missingRights(kube, [create])).length === 0) return undefined;
  return noOperatorsKey(namespace);
}

/** The clusters an action of the run changes: where the halt lever is watched (D128). */
export function changedClusters(prepared: Prepared, options: PreflightOptions): Connection[] {
  return [...clustersOf(prepared, options)].filter(([, r]) => r.changes).map(([connection]) => connection);
}

/**
 * Refuses (a Refusal saying what to fix) unless every cluster the run reaches accepts its
 * credentials and, where the run changes something and keeps a record, the identity holds every
 * right of the record (core's ledgerRules, for the key it will seal with) in the ledger namespace.
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
    const who = identity ? `User "${identity}"` : 'the identity';
    const asked = new Map(reached.needs.flatMap(({ rights }) => rights.map((r) => [key(r), r] as const)));
    let lacking: Right[];
    try {
      lacking = await missingRights(kube, [...asked.values()]);
    } catch (err) {
      throw new Refusal(`${which}: the rights the activities need could not be checked: ${message(err)}`);
    }
    if (lacking.length)
      throw new Refusal(
        `${who} may not ${describeMissing(reached.needs, new Set(lacking.map(key))).join('; ')}: the run would fail there, its changes half made; bind the identity to what chaoskit rbac prints for the experiment (a RoleBinding in each namespace it acts in, a ClusterRoleBinding for a ClusterRole)`,
      );
    if (!reached.changes || options.ledgerNamespace === undefined) continue;
    const namespace = options.ledgerNamespace;
    let missing: Awaited<ReturnType<typeof missingRights>>;
    const record = recordRules(namespace, identity, options.record, options.runner === true);
    let noKey: string | undefined;
    try {
      missing = await missingRights(kube, rightsOf(record.rules, namespace));
      if (missing.length === 0) noKey = await missingKey(kube, namespace, record.key);
    } catch (err) {
      throw new Refusal(`${which}: the rights of the run's record could not be checked: ${message(err)}`);
    }
    if (noKey) throw new Refusal(`${which}: ${noKey}`);
    if (missing.length === 0) continue;
    throw new Refusal(
      `${who} may not ${missing.map(describeRight).join(', ')} in namespace '${namespace}', which the run's record of its changes needs (chaoskit status and revert read it): bind there the -ledger Role that chaoskit rbac prints for the experiment, choose another namespace (--ledger-namespace), or run without a record (--no-ledger)`,
    );
  }
}
