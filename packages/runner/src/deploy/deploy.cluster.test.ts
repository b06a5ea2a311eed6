// `chaoskit deploy` and `undeploy` on the shared cluster: the objects are applied server-side
// by the field manager chaoskit, a server dry run changes nothing, undeploy removes exactly the
// deployment's objects, and bad input makes no request at all.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDryRun, isMutation, readAuditLog } from '@chaoskit/cluster';
import { fileNamespace, serviceAccountEnv, sharedCluster, until } from '@chaoskit/cluster/testing';
import {
  CoreV1Api,
  type KubernetesObject,
  KubernetesObjectApi,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { activity } from '../testing/test-experiments.js';

const cluster = sharedCluster();
const objects = KubernetesObjectApi.makeApiClient(cluster.kc);
const rbac = cluster.kc.makeApiClient(RbacAuthorizationV1Api);
const ns = fileNamespace(cluster.kc, 'deploy');
const target = fileNamespace(cluster.kc, 'deploy-target');
let dir: string;
let deployer: { identity: string; env: NodeJS.ProcessEnv };
const binding = `chaoskit-deploy-test-${process.pid}`;

const chaoskit = (args: string[]) => runCli(args, { cwd: dir, env: deployer.env });
/** deploy's one line on a cluster of kwok nodes alone (placement.cluster.test.ts says more). */
const ALL_KWOK =
  /^chaoskit: no node of the cluster can run the pod, which would stay Pending: [^\n]*type=kwok[^\n]*\n$/;

const KINDS: Array<[string, string, boolean]> = [
  ['v1', 'ServiceAccount', true],
  ['v1', 'Secret', true],
  ['v1', 'ConfigMap', true],
  ['batch/v1', 'Job', true],
  ['batch/v1', 'CronJob', true],
  ['rbac.authorization.k8s.io/v1', 'Role', true],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', true],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', false],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', false],
];

/** Every object labelled as chaoskit's deployment of `name` (from any namespace), as kind/ns/name. */
async function deployed(name: string): Promise<Map<string, KubernetesObject>> {
  const found = new Map<string, KubernetesObject>();
  for (const [apiVersion, kind] of KINDS) {
    const list = await objects.list(
      apiVersion,
      kind,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      `app.kubernetes.io/managed-by=chaoskit,chaoskit.io/experiment=${name},chaoskit.io/deployed-in=${ns.name}`,
    );
    for (const item of list.items)
      found.set(`${kind}/${item.metadata?.namespace ?? ''}/${item.metadata?.name}`, item);
  }
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-deploy-'));
  deployer = await serviceAccountEnv(cluster, ns.name, 'deployer', [
    { role: 'cluster-admin', clusterBinding: binding },
  ]);
  await writeFile(
    join(dir, 'kill.yaml'),
    dump({
      title: 'web pods go',
      description: 'deploy',
      method: [
        activity('action', 'kill', 'chaoscluster.pod.actions', 'terminate_pods', {
          ns: target.name,
          label_selector: 'app=web',
        }),
      ],
      rollbacks: [
        activity('action', 'back', 'chaoscluster.deployment.actions', 'scale_deployment', {
          name: 'web',
          replicas: 1,
        }),
      ],
    }),
  );
  await writeFile(
    join(dir, 'here.yaml'),
    dump({
      title: 'a pod of the namespace goes',
      description: 'deploy',
      method: [activity('action', 'kill', 'chaoscluster.pod.actions', 'terminate_pods', {})],
    }),
  );
  await writeFile(
    join(dir, 'cordon.yaml'),
    dump({
      title: 'a node is cordoned',
      description: 'deploy',
      method: [activity('action', 'cordon', 'chaoscluster.node.actions', 'cordon_node', { name: 'nowhere' })],
    }),
  );
});
afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: binding }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

it('applies every object server-side under the field manager chaoskit', async () => {
  const out = await chaoskit(['deploy', 'kill.yaml', '-n', ns.name]);
  // The shared cluster's nodes are kwok's: its pod would never run, and deploy says so (D166).
  expect(out.stderr).toMatch(ALL_KWOK);
  expect(out.code).toBe(0);
  const found = await deployed('kill');
  expect([...found.keys()].sort()).toEqual(
    [
      `ConfigMap/${ns.name}/chaoskit-kill`,
      `Job/${ns.name}/chaoskit-kill`,
      `Role/${ns.name}/chaoskit-kill`,
      `Role/${ns.name}/chaoskit-kill-journal`,
      `Role/${ns.name}/chaoskit-kill-ledger`,
      `Role/${ns.name}/chaoskit-kill-reaper`,
      `Role/kube-system/chaoskit-${ns.name}-kill-halt`,
      `Role/${target.name}/chaoskit-${ns.name}-kill`,
      `RoleBinding/${ns.name}/chaoskit-kill`,
      `RoleBinding/${ns.name}/chaoskit-kill-journal`,
      `RoleBinding/${ns.name}/chaoskit-kill-ledger`,
      `RoleBinding/${ns.name}/chaoskit-kill-reaper`,
      `RoleBinding/kube-system/chaoskit-${ns.name}-kill-halt`,
      `RoleBinding/${target.name}/chaoskit-${ns.name}-kill`,
      `Secret/${ns.name}/chaoskit-ledger-key-chaoskit-kill`,
      `ServiceAccount/${ns.name}/chaoskit-kill`,
    ].sort(),
  );
  // The runner's key is created, never applied (D158): applied again, it stays the same.
  const key = found.get(`Secret/${ns.name}/chaoskit-ledger-key-chaoskit-kill`) as {
    data?: Record<string, string>;
  };
  expect(Buffer.from(key.data?.key ?? '', 'base64')).toHaveLength(32);
  for (const [name, object] of found)
    if (!name.startsWith('Secret/'))
      expect(
        object.metadata?.managedFields?.some((f) => f.manager === 'chaoskit' && f.operation === 'Apply'),
        name,
      ).toBe(true);
  // Applied again, nothing conflicts: the same manager owns the same fields; the key is kept.
  const again = await chaoskit(['deploy', 'kill.yaml', '-n', ns.name]);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`secret/chaoskit-ledger-key-chaoskit-kill -n ${ns.name} kept`);
  expect((await deployed('kill')).get(`Secret/${ns.name}/chaoskit-ledger-key-chaoskit-kill`)).toMatchObject({
    data: key.data,
  });
  // A Job's pod cannot change: the refusal says what to do.
  const changed = await chaoskit(['deploy', 'kill.yaml', '-n', ns.name, '--image', 'elsewhere/runner:1']);
  expect(changed.stderr).toMatch(/immutable.*chaoskit undeploy kill -n /s);
  expect(changed.code).toBe(1);

  const cordon = await chaoskit(['deploy', 'cordon.yaml', '-n', ns.name, '--schedule', '@daily']);
  expect(cordon.code).toBe(0);
  expect([...(await deployed('cordon')).keys()]).toEqual(
    expect.arrayContaining([
      `CronJob/${ns.name}/chaoskit-cordon`,
      `ClusterRole//chaoskit-${ns.name}-cordon`,
      `ClusterRoleBinding//chaoskit-${ns.name}-cordon`,
    ]),
  );
});

it('--dry-run=server sends every write as a dry run and changes nothing', async () => {
  const since = new Date();
  const out = await chaoskit(['deploy', 'kill.yaml', '-n', ns.name, '--name', 'dry', '--dry-run=server']);
  expect(out.stderr).toMatch(ALL_KWOK);
  expect(out.code).toBe(0);
  expect(out.stdout).toContain('(server dry run)');
  const writes = await until('the dry run in the audit log', async () => {
    const events = (await readAuditLog(cluster.auditLogPath, { user: deployer.identity, since })).filter(
      isMutation,
    );
    return events.length >= 16 && events;
  });
  expect(writes.filter((e) => !isDryRun(e))).toEqual([]);
  // Every object applied, the key created (never applied over).
  expect(writes.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual(
    writes.map((e) =>
      e.objectRef?.resource === 'secrets' ? 'create secrets' : `patch ${e.objectRef?.resource}`,
    ),
  );
  expect(writes.filter((e) => e.verb === 'create')).toHaveLength(1);
  expect([...(await deployed('dry')).keys()]).toEqual([]);
});

it('--dry-run=server still says what the server refuses, and creates nothing', async () => {
  // A deployer who may write every kind of the deployment in its namespace but holds none of the
  // experiment's rights: RBAC refuses it a Role granting them (no escalation), dry run or not.
  const verbs = ['get', 'create', 'patch'];
  await rbac.createNamespacedRole({
    namespace: ns.name,
    body: {
      metadata: { name: 'writer' },
      rules: [
        { apiGroups: [''], resources: ['serviceaccounts', 'configmaps'], verbs },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs },
        { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs },
      ],
    },
  });
  const writer = await serviceAccountEnv(cluster, ns.name, 'writer', [{ role: 'writer', kind: 'Role' }]);
  const since = new Date();
  const out = await runCli(['deploy', 'here.yaml', '-n', ns.name, '--dry-run=server'], {
    cwd: dir,
    env: writer.env,
  });
  expect(out.code).toBe(1);
  expect(out.stdout).toBe(`serviceaccount/chaoskit-here -n ${ns.name} applied (server dry run)\n`);
  expect(out.stderr).toMatch(
    /"chaoskit-here" is forbidden: .*attempting to grant RBAC permissions not currently held/,
  );
  const writes = await until('the refused dry run in the audit log', async () => {
    const events = (await readAuditLog(cluster.auditLogPath, { user: writer.identity, since })).filter(
      isMutation,
    );
    return events.length >= 2 && events;
  });
  expect(writes.filter((e) => !isDryRun(e))).toEqual([]);
  // A refusal is asked once more (core: an apiserver restarting refuses for a moment).
  expect(writes.map((e) => `${e.objectRef?.resource} ${e.responseStatus?.code}`)).toEqual([
    'serviceaccounts 201',
    'roles 403',
    'roles 403',
  ]);
  expect([...(await deployed('here')).keys()]).toEqual([]);
});

it('undeploy deletes exactly the objects of the deployment', async () => {
  // Not the deployment's: another experiment's, and one that only carries the experiment's label.
  const core = cluster.kc.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({
    namespace: ns.name,
    body: {
      metadata: { name: 'bystander', labels: { 'chaoskit.io/experiment': 'kill' } },
      data: {},
    },
  });
  const before = await deployed('kill');
  const since = new Date();
  const out = await chaoskit(['undeploy', 'kill', '-n', ns.name]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  expect([...(await deployed('kill')).keys()]).toEqual([]);
  const deletes = await until('the deletes in the audit log', async () => {
    const events = (await readAuditLog(cluster.auditLogPath, { user: deployer.identity, since })).filter(
      isMutation,
    );
    return events.length >= before.size && events;
  });
  expect(deletes.map((e) => `${e.verb} ${e.objectRef?.namespace ?? ''}/${e.objectRef?.name}`).sort()).toEqual(
    [...before.keys()].map((key) => `delete ${key.split('/').slice(1).join('/')}`).sort(),
  );
  expect((await core.readNamespacedConfigMap({ name: 'bystander', namespace: ns.name })).metadata?.name).toBe(
    'bystander',
  );
  // The other deployment stands.
  expect((await deployed('cordon')).size).toBeGreaterThan(0);
  expect((await chaoskit(['undeploy', 'cordon', '-n', ns.name])).code).toBe(0);
  expect([...(await deployed('cordon')).keys()]).toEqual([]);
});

it('bad input is refused before any request', async () => {
  const since = new Date();
  const refused = [
    [['deploy', 'missing.yaml', '-n', ns.name], /missing\.yaml: cannot be read/],
    [['deploy', 'kill.yaml', '-n', ns.name, '--schedule', '*/5 * *'], /--schedule '\*\/5 \* \*' has 3 field/],
    [['deploy', 'kill.yaml', '-n', 'Not_A_Namespace'], /'Not_A_Namespace' is not a namespace name/],
    [['undeploy', 'kill', '-n', 'Not_A_Namespace'], /'Not_A_Namespace' is not a namespace name/],
  ] as const;
  for (const [args, message] of refused) {
    const out = await chaoskit([...args]);
    expect(out.stderr).toMatch(message);
    expect(out.code).not.toBe(0);
  }
  // A request after them, to know the log has caught up to this point.
  await chaoskit(['undeploy', 'nothing', '-n', ns.name]);
  const events = await until('the marker request in the audit log', async () => {
    const all = await readAuditLog(cluster.auditLogPath, { user: deployer.identity, since });
    return all.length > 0 && all;
  });
  // Whether a runner's record is in place (a get), then what carries the deployment's labels, and,
  // nothing found, whether the namespace is there at all (a get, D163).
  expect(events.map((e) => e.verb)).toEqual(['get', ...Array(9).fill('list'), 'get']);
});
