// What `chaoskit deploy -o yaml` prints, through the built command: the rights are those of
// `chaoskit rbac`, the pod is locked down, and the grace period covers the rollbacks.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  KubernetesObject,
  V1ConfigMap,
  V1CronJob,
  V1Job,
  V1Role,
  V1RoleBinding,
} from '@kubernetes/client-node';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNER_VERSION } from '../package/version.js';
import { runCli } from '../testing/test-cli.js';
import { activity } from '../testing/test-experiments.js';
import {
  GRACE_FLOOR_SECONDS,
  GRACE_MARGIN_SECONDS,
  gracePeriodSeconds,
  ROLLBACK_SECONDS,
} from './manifests.js';

type Obj = KubernetesObject & Record<string, unknown>;
let dir: string;
const chaoskit = (args: string[]) => runCli(args, { cwd: dir });

const experiment = {
  title: 'web pods go',
  description: 'deploy',
  method: [
    activity('action', 'kill', 'chaosk8s.pod.actions', 'terminate_pods', {
      ns: 'shop',
      label_selector: 'app=web',
    }),
    activity('action', 'more', 'chaoscluster.deployment.actions', 'create_deployment', {
      spec_path: 'manifests/web.yaml',
    }),
  ],
  rollbacks: [
    {
      ...activity('action', 'back', 'chaoscluster.deployment.actions', 'scale_deployment', {
        name: 'web',
        replicas: 3,
      }),
      timeout: 20,
      pauses: { before: 2, after: 5 },
    },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-deploy-'));
  await writeFile(join(dir, 'kill-web.yaml'), dump(experiment));
  await rm(join(dir, 'manifests'), { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(dir, 'manifests'));
  await writeFile(
    join(dir, 'manifests', 'web.yaml'),
    dump({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web2' }, spec: {} }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function manifests(args: string[]): Promise<Obj[]> {
  const out = await chaoskit(['deploy', 'kill-web.yaml', '-o', 'yaml', ...args]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return loadAll(out.stdout) as Obj[];
}

const byKind = <T = Obj>(objects: Obj[], kind: string) => objects.filter((o) => o.kind === kind) as T[];

describe('chaoskit deploy -o yaml', () => {
  it('prints a ServiceAccount, the Roles of chaoskit rbac bound to it, a ConfigMap and a locked-down Job', async () => {
    const objects = await manifests(['-n', 'chaos']);
    expect(objects.map((o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)).toEqual([
      'ServiceAccount/chaos/chaoskit-kill-web',
      'Role/chaos/chaoskit-kill-web',
      'RoleBinding/chaos/chaoskit-kill-web',
      'Role/shop/chaoskit-chaos-kill-web',
      'RoleBinding/shop/chaoskit-chaos-kill-web',
      'Role/chaos/chaoskit-kill-web-ledger',
      'RoleBinding/chaos/chaoskit-kill-web-ledger',
      'Role/kube-system/chaoskit-chaos-kill-web-halt',
      'RoleBinding/kube-system/chaoskit-chaos-kill-web-halt',
      'Role/chaos/chaoskit-kill-web-reaper',
      'RoleBinding/chaos/chaoskit-kill-web-reaper',
      'Role/chaos/chaoskit-kill-web-journal',
      'RoleBinding/chaos/chaoskit-kill-web-journal',
      'ConfigMap/chaos/chaoskit-kill-web',
      'Job/chaos/chaoskit-kill-web',
    ]);
    // The runner's key is created by deploy and never printed (D158).
    const printed0 = await chaoskit(['deploy', 'kill-web.yaml', '-o', 'yaml', '-n', 'chaos']);
    expect(printed0.stdout).toContain(
      '#   kubectl create secret generic chaoskit-ledger-key-chaoskit-kill-web -n chaos --from-literal=key=',
    );
    expect(printed0.stdout).not.toMatch(/^kind: Secret/m);
    // -o json: the same objects as kubectl prints several, a List; the key's note on stderr (D163).
    const json = await chaoskit(['deploy', 'kill-web.yaml', '-o', 'json', '-n', 'chaos']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ apiVersion: 'v1', kind: 'List', items: objects });
    expect(json.stderr).toContain(
      'kubectl create secret generic chaoskit-ledger-key-chaoskit-kill-web -n chaos',
    );
    for (const o of objects)
      expect(o.metadata?.labels).toEqual({
        'app.kubernetes.io/managed-by': 'chaoskit',
        'chaoskit.io/experiment': 'kill-web',
        'chaoskit.io/deployed-in': 'chaos',
      });

    // The activities' rules are chaoskit rbac's for the same file, and what undoing a killed
    // predecessor's changes takes (--revert-leftovers-of): deleting the deployment
    // create_deployment made.
    const printed = await chaoskit(['rbac', 'kill-web.yaml', '--journal-to-cluster']);
    expect(printed.code).toBe(0);
    const [role] = loadAll(printed.stdout) as V1Role[];
    const withUndo = role?.rules?.map((r) =>
      r.resources?.includes('deployments') ? { ...r, verbs: [...r.verbs, 'delete'].sort() } : r,
    );
    expect(withUndo).not.toEqual(role?.rules);
    const roles = byKind<V1Role>(objects, 'Role');
    const named = (suffix: string) => roles.find((r) => r.metadata?.name?.endsWith(suffix))?.rules;
    for (const r of roles.filter((r) => !/-(ledger|journal|halt|reaper)$/.test(r.metadata?.name ?? '')))
      expect(r.rules).toEqual(withUndo);
    // Its record: ConfigMaps read and created, its own record and the share locks of the
    // namespaces it acts in alone changed, its
    // own key read; the namespace's halt lever; whether a predecessor's pod is gone (D158).
    expect(named('-ledger')).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list'] },
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['delete', 'patch'],
        resourceNames: ['chaoskit-record-kill-web', 'chaoskit-share-lock-chaos', 'chaoskit-share-lock-shop'],
      },
      {
        apiGroups: [''],
        resources: ['secrets'],
        verbs: ['get'],
        resourceNames: ['chaoskit-ledger-key-chaoskit-kill-web'],
      },
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['chaoskit-halt'],
        verbs: ['get', 'list', 'watch'],
      },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    expect(named('-halt')).toEqual([
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['chaoskit-halt'],
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    // The reaper of the namespace may act as this runner, and as nothing else.
    expect(named('-reaper')).toEqual([
      {
        apiGroups: [''],
        resources: ['serviceaccounts'],
        verbs: ['impersonate'],
        resourceNames: ['chaoskit-kill-web'],
      },
    ]);
    // The journal's: its own journal ConfigMap written (one for a Job), and Events on the Job.
    expect(named('-journal')).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'list'] },
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['delete', 'get', 'update'],
        resourceNames: ['chaoskit-journal-kill-web-0'],
      },
      { apiGroups: [''], resources: ['events'], verbs: ['create'] },
    ]);
    for (const binding of byKind<V1RoleBinding>(objects, 'RoleBinding')) {
      expect(binding.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: binding.metadata?.name,
      });
      expect(binding.subjects).toEqual([
        {
          kind: 'ServiceAccount',
          name: binding.metadata?.name?.endsWith('-reaper') ? 'chaoskit-reaper' : 'chaoskit-kill-web',
          namespace: 'chaos',
        },
      ]);
    }

    const job = byKind<V1Job>(objects, 'Job')[0];
    expect(job?.spec?.backoffLimit).toBe(0);
    const pod = job?.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('chaoskit-kill-web');
    expect(pod?.restartPolicy).toBe('Never');
    expect(pod?.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const container = pod?.containers[0];
    expect(container?.securityContext).toEqual({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container?.resources).toEqual({
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { cpu: '1', memory: '512Mi' },
    });
    expect(container?.env).toContainEqual({ name: 'RUNNER_IN_POD', value: 'true' });
    // The journal's labels and the Job its Events are on.
    expect(container?.env).toContainEqual({ name: 'CHAOSKIT_EXPERIMENT', value: 'kill-web' });
    expect(container?.env).toContainEqual({
      name: 'CHAOSKIT_JOB',
      valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-name']" } },
    });
    expect(container?.args).toEqual([
      'run',
      '/chaoskit/experiment/experiment.json',
      '--journal-path',
      '/tmp/journal.json',
      '--ledger-namespace',
      'chaos',
      '--revert-leftovers-of',
      'kill-web',
      '-n',
      'chaos',
      '--journal-to-cluster',
    ]);
    // The pod's identity, for its run's record: a later run tells whether it is gone.
    for (const [name, fieldPath] of [
      ['CHAOSKIT_POD_NAME', 'metadata.name'],
      ['CHAOSKIT_POD_UID', 'metadata.uid'],
      ['CHAOSKIT_POD_NAMESPACE', 'metadata.namespace'],
    ])
      expect(container?.env).toContainEqual({ name, valueFrom: { fieldRef: { fieldPath } } });
    expect(container?.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    expect(pod?.volumes).toContainEqual({ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } });
    expect(pod?.volumes).toContainEqual({ name: 'experiment', configMap: { name: 'chaoskit-kill-web' } });
    // 10 s for the end of the run + the rollback's 20 s timeout and 2 + 5 s of pauses.
    expect(pod?.terminationGracePeriodSeconds).toBe(GRACE_MARGIN_SECONDS + 27);
    // Never on a node kwok fakes; on the local cluster's real nodes, tainted, when it has them (D166).
    expect(pod?.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'NotIn', values: ['kwok'] }] }],
        },
      },
    });
    expect(pod?.tolerations).toEqual([{ key: 'chaoskit.io/real-node', operator: 'Exists' }]);
    // The runner image this runner's `image build` tags (D165).
    expect(pod?.containers[0]?.image).toBe(`chaoskit.local/runner:${RUNNER_VERSION}`);
  });

  it("puts the files the experiment references in the ConfigMap, and points the experiment's copy at them", async () => {
    const objects = await manifests([]);
    const data = byKind<V1ConfigMap>(objects, 'ConfigMap')[0]?.data ?? {};
    expect(Object.keys(data).sort()).toEqual(['experiment.json', 'file-1-web.yaml']);
    expect(data['file-1-web.yaml']).toContain('name: web2');
    const copy = JSON.parse(data['experiment.json']!);
    expect(copy.method[1].provider.arguments.spec_path).toBe('/chaoskit/experiment/file-1-web.yaml');
    expect(copy.method[0]).toEqual(experiment.method[0]);
  });

  it("takes a js control given as a path, from the experiment's directory", async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'sub', 'controls'), { recursive: true });
    await writeFile(join(dir, 'sub', 'controls', 'audit.mjs'), 'export function configure_control() {}\n');
    await writeFile(
      join(dir, 'sub', 'audited.yaml'),
      dump({
        ...experiment,
        method: [experiment.method[0]],
        controls: [{ name: 'audit', provider: { type: 'js', module: './controls/audit.mjs' } }],
      }),
    );
    const out = await chaoskit(['deploy', 'sub/audited.yaml', '-o', 'yaml']);
    expect(out.code).toBe(0);
    const data = byKind<V1ConfigMap>(loadAll(out.stdout) as Obj[], 'ConfigMap')[0]?.data ?? {};
    expect(data['file-1-audit.mjs']).toContain('configure_control');
    expect(JSON.parse(data['experiment.json'] ?? '{}').controls[0].provider.module).toBe(
      '/chaoskit/experiment/file-1-audit.mjs',
    );
  });

  it('makes a CronJob that never runs two at once with --schedule, and feeds the environment from --env-from-secret', async () => {
    const objects = await manifests([
      '--schedule',
      '*/5 * * * *',
      '--env-from-secret',
      'chaos-env',
      '--node-selector',
      'kubernetes.io/os=linux',
      '--tolerate',
      'dedicated',
    ]);
    expect(byKind(objects, 'Job')).toEqual([]);
    const cron = byKind<V1CronJob>(objects, 'CronJob')[0];
    expect(cron?.spec?.schedule).toBe('*/5 * * * *');
    expect(cron?.spec?.concurrencyPolicy).toBe('Forbid');
    const container = cron?.spec?.jobTemplate.spec?.template.spec?.containers[0];
    expect(container?.envFrom).toEqual([{ secretRef: { name: 'chaos-env' } }]);
    expect(container?.securityContext?.readOnlyRootFilesystem).toBe(true);
    const pod = cron?.spec?.jobTemplate.spec?.template.spec;
    expect(pod?.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod?.tolerations).toEqual([
      { key: 'chaoskit.io/real-node', operator: 'Exists' },
      { key: 'dedicated', operator: 'Exists' },
    ]);
  });

  it('passes --ledger-ttl to the runs', async () => {
    const [job] = byKind<V1Job>(await manifests(['--ledger-ttl', '90m']), 'Job');
    const args = job?.spec?.template.spec?.containers[0]?.args ?? [];
    expect(args.slice(args.indexOf('--ledger-ttl'), args.indexOf('--ledger-ttl') + 2)).toEqual([
      '--ledger-ttl',
      '90m',
    ]);
  });

  it('makes the reaper: a CronJob running revert --expired, holding no right over any object of its own', async () => {
    const out = await chaoskit(['deploy', '--reaper', '-n', 'chaos', '-o', 'yaml']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const objects = loadAll(out.stdout) as Obj[];
    expect(objects.map((o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)).toEqual([
      'ServiceAccount/chaos/chaoskit-reaper',
      'Role/chaos/chaoskit-reaper',
      'RoleBinding/chaos/chaoskit-reaper',
      'CronJob/chaos/chaoskit-reaper',
    ]);
    // It lists the records and says on its Job what it left alone; everything else it does as
    // the runner that wrote each record, which each deployment lets it act as (D158).
    expect(byKind<V1Role>(objects, 'Role')[0]?.rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create'] },
    ]);
    const cron = byKind<V1CronJob>(objects, 'CronJob')[0];
    expect(cron?.spec?.schedule).toBe('0 * * * *');
    expect(cron?.spec?.concurrencyPolicy).toBe('Forbid');
    const pod = cron?.spec?.jobTemplate.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('chaoskit-reaper');
    expect(pod?.containers[0]?.args).toEqual(['revert', '--expired', '--yes', '--ledger-namespace', 'chaos']);
    expect(pod?.containers[0]?.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(pod?.volumes).toEqual([{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }]);
  });

  it('makes a ClusterRole and its binding when an activity acts on cluster-wide resources', async () => {
    await writeFile(
      join(dir, 'drain.json'),
      JSON.stringify({
        title: 'a node goes',
        description: 'deploy',
        method: [activity('action', 'cordon', 'chaosk8s.node.actions', 'cordon_node', { name: 'n1' })],
      }),
    );
    const out = await chaoskit(['deploy', 'drain.json', '-n', 'chaos', '-o', 'yaml']);
    expect(out.code).toBe(0);
    const objects = loadAll(out.stdout) as Obj[];
    const [clusterRole] = byKind<V1Role>(objects, 'ClusterRole');
    expect(clusterRole?.metadata?.name).toBe('chaoskit-chaos-drain');
    const [role] = loadAll((await chaoskit(['rbac', 'drain.json'])).stdout) as V1Role[];
    expect(clusterRole?.rules).toEqual(role?.rules);
    expect(byKind<V1RoleBinding>(objects, 'ClusterRoleBinding')[0]?.roleRef.name).toBe(
      'chaoskit-chaos-drain',
    );
  });
});

describe('the grace period', () => {
  it('is the floor without rollbacks, and grows with each rollback and its pauses', () => {
    expect(gracePeriodSeconds({})).toBe(GRACE_FLOOR_SECONDS);
    expect(gracePeriodSeconds({ rollbacks: [{ name: 'a' }] })).toBe(GRACE_MARGIN_SECONDS + ROLLBACK_SECONDS);
    expect(
      gracePeriodSeconds({
        configuration: { wait: 40 },
        rollbacks: [{ timeout: 10 }, { timeout: 5, pauses: { before: '${wait}', after: '${unknown}' } }],
      }),
    ).toBe(GRACE_MARGIN_SECONDS + 10 + 5 + 40 + ROLLBACK_SECONDS);
  });
});

describe('bad input', () => {
  it.each([
    [['missing.yaml'], 3, /missing\.yaml: cannot be read \(ENOENT\)/],
    [['kill-web.yaml', '--schedule', '* * *'], 2, /--schedule '\* \* \*' has 3 field\(s\); five fields/],
    [['kill-web.yaml', '--schedule', '61 * * * *'], 2, /'61' is not a minute \(0-59/],
    [['kill-web.yaml', '--schedule', 'TZ=UTC 0 * * * *'], 2, /a time zone is not accepted/],
    [['kill-web.yaml', '-n', 'Shop_1'], 2, /-n\/--namespace 'Shop_1' is not a namespace name/],
    [
      ['kill-web.yaml', '--name', 'Web'],
      2,
      /--name 'Web' is not an experiment's name in the cluster: lower-case letters/,
    ],
    [['kill-web.yaml', '--dry-run', 'yes'], 2, /Allowed choices are client, server/],
    [['kill-web.yaml', '-o', 'table'], 2, /Allowed choices are json, yaml/],
    [['kill-web.yaml', '--node-selector', 'os'], 2, /--node-selector 'os': a node label as key=value/],
    [
      ['kill-web.yaml', '--image', 'Runner:latest'],
      2,
      /option '--image <image>' argument 'Runner:latest' is invalid\. 'Runner:latest' is not an image reference: \[registry\/\]name\[:tag\]/,
    ],
    [['kill-web.yaml', '--env-from-secret', 'A B'], 2, /--env-from-secret 'A B' is not a Secret name/],
    [
      ['kill-web.yaml', '--ledger-ttl', 'soon'],
      2,
      /--ledger-ttl takes a duration such as 24h or 90m, got soon/,
    ],
    [['kill-web.yaml', '--name', 'reaper'], 2, /the name 'reaper' is deploy --reaper's/],
    [['kill-web.yaml', '--reaper'], 2, /--reaper deploys no experiment: give no experiment file/],
    [[], 2, /give the experiment file to deploy, or --reaper/],
  ])('deploy %j is refused with exit %i', async (args, code, message) => {
    const out = await chaoskit(['deploy', ...args, '--kubeconfig', '/nonexistent']);
    expect(out.stderr).toMatch(message);
    expect(out.code).toBe(code);
    expect(out.stdout).toBe('');
  });

  it('accepts the schedules Kubernetes takes', async () => {
    for (const schedule of ['@hourly', '0 3 * * mon-fri', '*/15 0-6,22-23 1 jan,jul ?', '0 0 1-31/2 * 0']) {
      const out = await chaoskit(['deploy', 'kill-web.yaml', '--schedule', schedule, '-o', 'yaml']);
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
    }
  });

  it('refuses a file the experiment references that cannot be read, naming the activity and argument', async () => {
    await writeFile(
      join(dir, 'lost.yaml'),
      dump({
        ...experiment,
        method: [
          activity('action', 'make', 'chaoscluster.deployment.actions', 'create_deployment', {
            spec_path: 'nowhere.yaml',
          }),
        ],
      }),
    );
    const out = await chaoskit(['deploy', 'lost.yaml', '-o', 'yaml']);
    expect(out.stderr).toMatch(
      /activity 'make', argument spec_path: the file 'nowhere.yaml' cannot be read \(ENOENT\)/,
    );
    expect(out.code).toBe(3);
  });

  it('undeploy refuses a name that no deployment can have', async () => {
    const out = await chaoskit(['undeploy', 'Not_A_Name', '--kubeconfig', '/nonexistent']);
    expect(out.stderr).toMatch(/the name 'Not_A_Name' is not an experiment's name in the cluster/);
    expect(out.code).toBe(2);
  });
});
