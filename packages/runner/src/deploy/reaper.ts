// `chaoskit deploy --reaper`: a CronJob that runs `chaoskit revert --expired --yes` in a
// namespace, undoing what expired runs of the experiments deployed there left (a pod killed
// outright, a lost node). It holds no right over any object of its own: it lists the records,
// and acts as the runner that wrote each one — each deployment grants it that, and only that
// (its `-reaper` Role, deploy/manifests.ts) — so that it can do nothing its runners could not,
// and nothing at all once they are undeployed (D122, D158). What it may not verify or act on it
// names, in an Event on its Job, without failing.

import type { RbacRule } from '@chaoskit/core';
import {
  deployLabels,
  GRACE_FLOOR_SECONDS,
  jobEnv,
  type Manifest,
  podSpec,
  REAPER_ACCOUNT,
  type RunnerPod,
  workload,
} from './manifests.js';

/** The reaper's name in the cluster: `chaoskit undeploy reaper` removes it. */
export const REAPER = 'reaper';
/** Every hour, on the hour: expired runs are a day old by default (--ledger-ttl). */
export const REAPER_SCHEDULE = '0 * * * *';

/** What the reaper does as itself: list the namespace's records, and say on its Job what it left alone. */
const REAPER_RULES: RbacRule[] = [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
];

export interface ReaperInput extends Pick<RunnerPod, 'image' | 'nodeSelector' | 'tolerate'> {
  namespace: string;
  schedule: string;
}

export function reaperManifests(input: ReaperInput): Manifest[] {
  const name = REAPER_ACCOUNT;
  const labels = deployLabels(REAPER, input.namespace);
  const at = (n: string, namespace?: string) => ({ name: n, ...(namespace ? { namespace } : {}), labels });
  const subjects = [{ kind: 'ServiceAccount', name, namespace: input.namespace }];
  const rbac = 'rbac.authorization.k8s.io/v1';
  const pod = podSpec({
    ...input,
    account: name,
    args: ['revert', '--expired', '--yes', '--ledger-namespace', input.namespace],
    grace: GRACE_FLOOR_SECONDS,
    env: jobEnv,
  });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: at(name, input.namespace) },
    { apiVersion: rbac, kind: 'Role', metadata: at(name, input.namespace), rules: REAPER_RULES },
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
