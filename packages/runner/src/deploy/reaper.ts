// `chaoskit deploy --reaper`: a CronJob that runs `chaoskit revert --expired --yes` in a
// namespace, undoing what expired runs left there (a pod killed outright, a lost node), with
// exactly the rights that revert needs: the namespace's records and ledger key, and — anywhere,
// as records may name any namespace — to read each kind the installed activities change and to
// write its inverse (D122).

import type { RbacRule } from '@chaoskit/core';
import { LEDGER_KEY_SECRET, undoRules } from '@chaoskit/core/runner';
import { mergeRuleList } from '../rbac.js';
import {
  deployLabels,
  GRACE_FLOOR_SECONDS,
  type Manifest,
  podSpec,
  type RunnerPod,
  workload,
} from './manifests.js';

/** The reaper's name in the cluster: `chaoskit undeploy reaper` removes it. */
export const REAPER = 'reaper';
/** Every hour, on the hour: expired runs are a day old by default (--ledger-ttl). */
export const REAPER_SCHEDULE = '0 * * * *';

/** What `revert --expired` reads and writes of the namespace's records. */
const RECORD_RULES: RbacRule[] = [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['delete', 'get', 'list', 'patch'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [LEDGER_KEY_SECRET] },
];

export interface ReaperInput extends Pick<RunnerPod, 'image' | 'nodeSelector' | 'tolerate'> {
  namespace: string;
  schedule: string;
  /** The RBAC rules of every installed activity: what a record may say was changed. */
  activityRules: readonly RbacRule[];
}

export function reaperManifests(input: ReaperInput): Manifest[] {
  const name = `chaoskit-${REAPER}`;
  // Outside the namespace, the name carries it: each namespace may have its reaper.
  const placed = `chaoskit-${input.namespace}-${REAPER}`;
  const labels = deployLabels(REAPER, input.namespace);
  const at = (n: string, namespace?: string) => ({ name: n, ...(namespace ? { namespace } : {}), labels });
  const subjects = [{ kind: 'ServiceAccount', name, namespace: input.namespace }];
  const rbac = 'rbac.authorization.k8s.io/v1';
  const pod = podSpec({
    ...input,
    account: name,
    args: ['revert', '--expired', '--yes', '--ledger-namespace', input.namespace],
    grace: GRACE_FLOOR_SECONDS,
  });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: at(name, input.namespace) },
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: at(placed),
      rules: mergeRuleList(undoRules(input.activityRules)),
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: at(placed),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: placed },
      subjects,
    },
    { apiVersion: rbac, kind: 'Role', metadata: at(name, input.namespace), rules: RECORD_RULES },
    {
      apiVersion: rbac,
      kind: 'RoleBinding',
      metadata: at(name, input.namespace),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects,
    },
    workload(at(name, input.namespace), pod, input.schedule),
  ];
}
