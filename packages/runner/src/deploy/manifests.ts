// The objects `chaoskit deploy` applies for one experiment: its ServiceAccount, the rights
// `chaoskit rbac` derives for it (and those of its record of changes, on its own objects only),
// the key that seals its records, a ConfigMap with the experiment and its files, and a Job — or
// a CronJob that never runs two at once — whose pod is locked down and given the time its
// rollbacks need when it is stopped (D109, D158).

import type { AnyActivity, RbacRule } from '@chaoskit/core';
import {
  deploymentRecordName,
  keySecret,
  ledgerRules,
  runnerKeyName,
  shareLockName,
  undoRules,
} from '@chaoskit/core/runner';
import { isObject } from '../experiment/raw.js';
import { CLUSTER_HALT_NAMESPACE, HALT_RULES } from '../guards/halt.js';
import { RUNNER_UID } from '../image/user.js';
import { EXPERIMENT_LABEL, MANAGED_BY } from '../journals/labels.js';
import { JOB_EVENT_RULES, journalRules, journalSlotCount, journalSlots } from '../journals/rules.js';
import { mergeRuleList, mergeRules, roleFor } from '../rbac/rbac.js';
import { EXPERIMENT_DIR, EXPERIMENT_KEY } from './experiment-files.js';
import { runsContainers, toleratedKeys } from './placement.js';

type Json = Record<string, unknown>;
export type Manifest = Json & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

/** The namespace of the deployment, on the objects it places elsewhere (Roles, ClusterRoles). */
export const DEPLOYED_IN_LABEL = 'chaoskit.io/deployed-in';

/** The seconds a stopped pod always gets, whatever its rollbacks. */
export const GRACE_FLOOR_SECONDS = 30;
/** What a rollback without a timeout is given. */
export const ROLLBACK_SECONDS = 60;
/** The end of a run after its rollbacks: its journal, its record. */
export const GRACE_MARGIN_SECONDS = 10;

/** The ServiceAccount the reaper of a namespace runs as (deploy/reaper.ts). */
export const REAPER_ACCOUNT = 'chaoskit-reaper';

export interface DeployInput {
  /** The experiment's name in the cluster (labels, object names). */
  name: string;
  namespace: string;
  image: string;
  /** The experiment as its file declares it (its rollbacks give the grace period). */
  experiment: Json;
  /** The ConfigMap's data (experiment-files.ts). */
  data: Record<string, string>;
  /** The chaoskit activities the experiment names. */
  activities: readonly AnyActivity[];
  /** The namespaces its activities act in (where a Role is bound). */
  actsIn: readonly string[];
  /** A CronJob on this schedule, else a Job. */
  schedule?: string;
  /** The runs' --ledger-ttl. */
  ledgerTtl?: string;
  /** The Secret whose keys become the pod's environment variables. */
  envFromSecret?: string;
  /** Where the pod may run: node labels it needs, taint keys it tolerates. */
  nodeSelector?: Record<string, string>;
  tolerate?: readonly string[];
}

/** The labels every object of the deployment carries: what `undeploy` selects. */
export function deployLabels(name: string, namespace: string): Record<string, string> {
  return { [MANAGED_BY]: 'chaoskit', [EXPERIMENT_LABEL]: name, [DEPLOYED_IN_LABEL]: namespace };
}

/** The label selector of a deployment's objects. */
export function deploySelector(name: string, namespace: string): string {
  return Object.entries(deployLabels(name, namespace))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

const seconds = (value: unknown, configuration: Json): number | undefined => {
  if (typeof value === 'number' && value >= 0) return value;
  const ref = typeof value === 'string' ? /^\$\{([^}]+)\}$/.exec(value)?.[1] : undefined;
  const resolved = ref ? configuration[ref] : undefined;
  return typeof resolved === 'number' && resolved >= 0 ? resolved : undefined;
};

/**
 * The pod's terminationGracePeriodSeconds: every rollback's timeout (ROLLBACK_SECONDS without
 * one) and pauses, one after the other, and the end of the run; never less than the floor.
 * A pause the file cannot say yet (an environment value) counts as ROLLBACK_SECONDS.
 */
export function gracePeriodSeconds(experiment: Json): number {
  const configuration = isObject(experiment.configuration) ? experiment.configuration : {};
  const rollbacks = Array.isArray(experiment.rollbacks) ? experiment.rollbacks.filter(isObject) : [];
  let total = GRACE_MARGIN_SECONDS;
  for (const rollback of rollbacks) {
    total += seconds(rollback.timeout, configuration) ?? ROLLBACK_SECONDS;
    const pauses = isObject(rollback.pauses) ? rollback.pauses : {};
    for (const when of ['before', 'after'] as const)
      if (pauses[when] !== undefined) total += seconds(pauses[when], configuration) ?? ROLLBACK_SECONDS;
  }
  return Math.max(GRACE_FLOOR_SECONDS, Math.ceil(total));
}

function meta(name: string, input: DeployInput, namespace?: string): Manifest['metadata'] {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    labels: deployLabels(input.name, input.namespace),
  };
}

/** The Role (or ClusterRole) of the activities, its bindings, and the Roles of its record and journal. */
function rbacObjects(input: DeployInput, account: string): Manifest[] {
  const own = `chaoskit-${input.name}`;
  // Outside the deployment's namespace, names carry it: two namespaces may deploy one experiment.
  const placed = `chaoskit-${input.namespace}-${input.name}`;
  const subjects = [{ kind: 'ServiceAccount', name: account, namespace: input.namespace }];
  const { role } = roleFor(input.activities, own) as { role: Manifest };
  // A run first undoes what a killed predecessor left (--revert-leftovers-of): the inverse of
  // the writes of the same activities (D121); its Events are notes, not undone.
  role.rules = mergeRuleList([...(role.rules as RbacRule[]), ...undoRules(mergeRules(input.activities))]);
  const out: Manifest[] = [];
  const bind = (
    kind: 'Role' | 'ClusterRole',
    roleName: string,
    namespace?: string,
    to: typeof subjects = subjects,
  ): Manifest => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: meta(roleName, input, namespace),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
    subjects: to,
  });
  const grant = (name: string, namespace: string, rules: readonly RbacRule[], to = subjects) => {
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(name, input, namespace),
      rules: rules.map((rule) => ({ ...rule })),
    });
    out.push(bind('Role', name, namespace, to));
  };
  if ((role.rules as unknown[]).length > 0) {
    if (role.kind === 'ClusterRole') {
      out.push({ ...role, metadata: meta(placed, input) });
      out.push(bind('ClusterRole', placed));
    } else {
      for (const namespace of input.actsIn) {
        const name = namespace === input.namespace ? own : placed;
        out.push({ ...role, metadata: meta(name, input, namespace) });
        out.push(bind('Role', name, namespace));
      }
    }
  }
  // The run keeps its record and its journal in the deployment's namespace (--ledger-namespace),
  // and may change its own objects there and no other deployment's (D158).
  if (input.activities.some((a) => a.kind === 'action')) {
    const ownMaps = [deploymentRecordName(input.name), ...input.actsIn.map(shareLockName)];
    grant(`${own}-ledger`, input.namespace, [
      ...ledgerRules(runnerKeyName(account), ownMaps),
      ...HALT_RULES,
      // Whether a predecessor's pod is gone (--revert-leftovers-of).
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    // The cluster's halt lever, which every run watches (D159).
    grant(`${placed}-halt`, CLUSTER_HALT_NAMESPACE, HALT_RULES);
    // The namespace's reaper acts as this runner, and as nothing else (D122).
    grant(
      `${own}-reaper`,
      input.namespace,
      [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'], resourceNames: [account] }],
      [{ kind: 'ServiceAccount', name: REAPER_ACCOUNT, namespace: input.namespace }],
    );
  }
  grant(`${own}-journal`, input.namespace, [
    ...journalRules(journalSlots(input.name, journalSlotCount(input.schedule !== undefined))),
    ...JOB_EVENT_RULES,
  ]);
  return out;
}

/** The Secret of the key that seals the runner's records: made once, never applied over. */
export function runnerKey(input: Pick<DeployInput, 'name' | 'namespace'>): Manifest {
  return keySecret(
    runnerKeyName(`chaoskit-${input.name}`),
    input.namespace,
    `seals the records of changes of the runner of experiment ${input.name}: only its ServiceAccount may read it, and it vouches for that runner's records alone`,
    deployLabels(input.name, input.namespace),
  ) as Manifest;
}

/** Where and how a locked-down runner pod runs: its image, identity, command and placement. */
export interface RunnerPod
  extends Pick<DeployInput, 'image' | 'envFromSecret' | 'nodeSelector' | 'tolerate'> {
  account: string;
  args: string[];
  grace: number;
  /** The ConfigMap mounted read-only at EXPERIMENT_DIR. */
  configMap?: string;
  /** More environment variables. */
  env?: Json[];
}

/** The arguments of a deployed run: the experiment, its record, and its predecessors' leftovers. */
function runArgs(input: DeployInput): string[] {
  return [
    'run',
    `${EXPERIMENT_DIR}/${EXPERIMENT_KEY}`,
    '--journal-path',
    '/tmp/journal.json',
    '--ledger-namespace',
    input.namespace,
    ...(input.ledgerTtl ? ['--ledger-ttl', input.ledgerTtl] : []),
    // With actions, runs keep records (and the ledger Role is there to read them).
    ...(input.activities.some((a) => a.kind === 'action') ? ['--revert-leftovers-of', input.name] : []),
    '-n',
    input.namespace,
    '--journal-to-cluster',
  ];
}

/** The Job a pod runs in (the Job's own labels of its pod): what its Events are on. */
export const jobEnv: Json[] = [
  ['CHAOSKIT_JOB', 'job-name'],
  ['CHAOSKIT_JOB_UID', 'controller-uid'],
].map(([name, label]) => ({
  name,
  valueFrom: { fieldRef: { fieldPath: `metadata.labels['batch.kubernetes.io/${label}']` } },
}));

/** What a deployed run's journal is labelled with and kept in, and its Job. */
const runEnv = (input: DeployInput): Json[] => [
  { name: 'CHAOSKIT_EXPERIMENT', value: input.name },
  { name: 'CHAOSKIT_JOURNAL_SLOTS', value: String(journalSlotCount(input.schedule !== undefined)) },
  ...jobEnv,
];

/** The pod's own name, uid and namespace, for its run's record (D121). */
const podIdentity = Object.entries({
  CHAOSKIT_POD_NAME: 'metadata.name',
  CHAOSKIT_POD_UID: 'metadata.uid',
  CHAOSKIT_POD_NAMESPACE: 'metadata.namespace',
}).map(([name, fieldPath]) => ({ name, valueFrom: { fieldRef: { fieldPath } } }));

/** A locked-down pod running the runner image under a deployment's ServiceAccount. */
export function podSpec(input: RunnerPod): Json {
  return {
    serviceAccountName: input.account,
    automountServiceAccountToken: true,
    restartPolicy: 'Never',
    ...(input.nodeSelector && Object.keys(input.nodeSelector).length
      ? { nodeSelector: input.nodeSelector }
      : {}),
    // Never where nothing runs; on the local cluster's real nodes when it has them (D166).
    affinity: runsContainers,
    tolerations: toleratedKeys(input.tolerate).map((key) => ({ key, operator: 'Exists' })),
    terminationGracePeriodSeconds: input.grace,
    securityContext: {
      runAsNonRoot: true,
      runAsUser: RUNNER_UID,
      runAsGroup: RUNNER_UID,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    containers: [
      {
        name: 'chaoskit',
        image: input.image,
        imagePullPolicy: 'IfNotPresent',
        args: input.args,
        workingDir: '/tmp',
        env: [
          { name: 'RUNNER_IN_POD', value: 'true' },
          { name: 'HOME', value: '/tmp' },
          ...podIdentity,
          ...(input.env ?? []),
        ],
        ...(input.envFromSecret ? { envFrom: [{ secretRef: { name: input.envFromSecret } }] } : {}),
        securityContext: {
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        },
        resources: {
          requests: { cpu: '100m', memory: '128Mi' },
          limits: { cpu: '1', memory: '512Mi' },
        },
        volumeMounts: [
          ...(input.configMap ? [{ name: 'experiment', mountPath: EXPERIMENT_DIR, readOnly: true }] : []),
          { name: 'tmp', mountPath: '/tmp' },
        ],
      },
    ],
    volumes: [
      ...(input.configMap ? [{ name: 'experiment', configMap: { name: input.configMap } }] : []),
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
    ],
  };
}

/** A Job running `pod`, or a CronJob on `schedule` that never runs two at once. */
export function workload(metadata: Manifest['metadata'], pod: Json, schedule?: string): Manifest {
  const job = {
    // A run is not retried: its chaos would be played twice.
    backoffLimit: 0,
    template: { metadata: { labels: metadata.labels }, spec: pod },
  };
  return schedule
    ? {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata,
        spec: {
          schedule,
          concurrencyPolicy: 'Forbid',
          successfulJobsHistoryLimit: 3,
          failedJobsHistoryLimit: 3,
          jobTemplate: { metadata: { labels: metadata.labels }, spec: job },
        },
      }
    : { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: job };
}

/** Every object of the deployment, in the order they are applied (the Job or CronJob last). */
export function deployManifests(input: DeployInput): Manifest[] {
  const own = `chaoskit-${input.name}`;
  const account: Manifest = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta(own, input, input.namespace),
  };
  const configMap: Manifest = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(own, input, input.namespace),
    data: input.data,
  };
  const pod = podSpec({
    ...input,
    account: own,
    configMap: own,
    args: runArgs(input),
    env: runEnv(input),
    grace: gracePeriodSeconds(input.experiment),
  });
  const changes = input.activities.some((a) => a.kind === 'action');
  return [
    account,
    ...rbacObjects(input, own),
    ...(changes ? [runnerKey(input)] : []),
    configMap,
    workload(meta(own, input, input.namespace), pod, input.schedule),
  ];
}
