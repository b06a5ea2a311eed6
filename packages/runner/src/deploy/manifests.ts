// The objects `chaoskit deploy` applies for one experiment: its ServiceAccount, the rights
// `chaoskit rbac` derives for it (and those of its record of changes), a ConfigMap with the
// experiment and its files, and a Job — or a CronJob that never runs two at once — whose pod
// is locked down and given the time its rollbacks need when it is stopped (D109).

import type { AnyActivity } from '@chaoskit/core';
import { isObject } from '../raw-experiment.js';
import { roleFor } from '../rbac.js';
import { EXPERIMENT_DIR, EXPERIMENT_KEY } from './experiment-files.js';

type Json = Record<string, unknown>;
export type Manifest = Json & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

export const MANAGED_BY = 'app.kubernetes.io/managed-by';
export const EXPERIMENT_LABEL = 'chaoskit.io/experiment';
/** The namespace of the deployment, on the objects it places elsewhere (Roles, ClusterRoles). */
export const DEPLOYED_IN_LABEL = 'chaoskit.io/deployed-in';

/** The seconds a stopped pod always gets, whatever its rollbacks. */
export const GRACE_FLOOR_SECONDS = 30;
/** What a rollback without a timeout is given. */
export const ROLLBACK_SECONDS = 60;
/** The end of a run after its rollbacks: its journal, its record. */
export const GRACE_MARGIN_SECONDS = 10;

/** The pod's user: not root, and no user of the image's (it has none). */
export const RUNNER_UID = 65532;

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

/** The Role (or ClusterRole) of the activities, its bindings, and the record's Role. */
function rbacObjects(input: DeployInput, account: string): Manifest[] {
  const own = `chaoskit-${input.name}`;
  // Outside the deployment's namespace, names carry it: two namespaces may deploy one experiment.
  const placed = `chaoskit-${input.namespace}-${input.name}`;
  const subjects = [{ kind: 'ServiceAccount', name: account, namespace: input.namespace }];
  const { role, ledger, journal } = roleFor(input.activities, own, { journal: true }) as {
    role: Manifest;
    ledger?: Manifest;
    journal: Manifest;
  };
  const out: Manifest[] = [];
  const bind = (kind: 'Role' | 'ClusterRole', roleName: string, namespace?: string): Manifest => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: meta(roleName, input, namespace),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
    subjects,
  });
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
  // The run keeps its record and its journal in the deployment's namespace (--ledger-namespace).
  for (const kept of ledger ? [ledger, journal] : [journal]) {
    out.push({ ...kept, metadata: meta(kept.metadata.name, input, input.namespace) });
    out.push(bind('Role', kept.metadata.name, input.namespace));
  }
  return out;
}

/** The locked-down pod that runs the experiment under the deployment's ServiceAccount. */
function podSpec(input: DeployInput, account: string, configMap: string): Json {
  return {
    serviceAccountName: account,
    automountServiceAccountToken: true,
    restartPolicy: 'Never',
    ...(input.nodeSelector && Object.keys(input.nodeSelector).length
      ? { nodeSelector: input.nodeSelector }
      : {}),
    ...(input.tolerate?.length
      ? { tolerations: input.tolerate.map((key) => ({ key, operator: 'Exists' })) }
      : {}),
    terminationGracePeriodSeconds: gracePeriodSeconds(input.experiment),
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
        args: [
          'run',
          `${EXPERIMENT_DIR}/${EXPERIMENT_KEY}`,
          '--journal-path',
          '/tmp/journal.json',
          '--ledger-namespace',
          input.namespace,
          '-n',
          input.namespace,
          '--journal-to-cluster',
        ],
        workingDir: '/tmp',
        env: [
          { name: 'RUNNER_IN_POD', value: 'true' },
          { name: 'HOME', value: '/tmp' },
          // What the journal is labelled with, and the Job its Events are on (the Job's own labels of its pod).
          { name: 'CHAOSKIT_EXPERIMENT', value: input.name },
          ...[
            ['CHAOSKIT_JOB', 'job-name'],
            ['CHAOSKIT_JOB_UID', 'controller-uid'],
          ].map(([name, label]) => ({
            name,
            valueFrom: { fieldRef: { fieldPath: `metadata.labels['batch.kubernetes.io/${label}']` } },
          })),
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
          { name: 'experiment', mountPath: EXPERIMENT_DIR, readOnly: true },
          { name: 'tmp', mountPath: '/tmp' },
        ],
      },
    ],
    volumes: [
      { name: 'experiment', configMap: { name: configMap } },
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
    ],
  };
}

/** Every object of the deployment, in the order they are applied (the Job or CronJob last). */
export function deployManifests(input: DeployInput): Manifest[] {
  const own = `chaoskit-${input.name}`;
  const labels = deployLabels(input.name, input.namespace);
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
  const job = {
    // A run is not retried: its chaos would be played twice.
    backoffLimit: 0,
    template: { metadata: { labels }, spec: podSpec(input, own, own) },
  };
  const workload: Manifest = input.schedule
    ? {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: meta(own, input, input.namespace),
        spec: {
          schedule: input.schedule,
          concurrencyPolicy: 'Forbid',
          successfulJobsHistoryLimit: 3,
          failedJobsHistoryLimit: 3,
          jobTemplate: { metadata: { labels }, spec: job },
        },
      }
    : { apiVersion: 'batch/v1', kind: 'Job', metadata: meta(own, input, input.namespace), spec: job };
  return [account, ...rbacObjects(input, own), configMap, workload];
}
