// The record of changes is never a way in: someone who may only create ConfigMaps writes
// records shaped like chaoskit's — binding themselves to cluster-admin, cordoning a node,
// creating a privileged pod, injecting a mesh fault — and an administrator then runs `status`,
// `revert` and `revert --expired`. Nothing is created, changed or deleted (the audit log shows
// no write by the administrator), and every forged record is named. A record sealed with the
// real key is still refused when it claims what its activity cannot do.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMutation, readAuditLog } from '@chaoskit/cluster';
import {
  apisOf,
  kubeconfigYaml,
  serviceAccountToken,
  sharedCluster,
  testNamespace,
} from '@chaoskit/cluster/testing';
import { identityOf, LEDGER_KEY_SECRET, readLedgerKey, recordBinding } from '@chaoskit/core/runner';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { python } from '../testing/test-experiments.js';
import { tokenKubeconfig, transportIn } from '../testing/test-identities.js';
import { killedAfter } from '../testing/test-runs.js';

const cluster = sharedCluster();
const { core, rbac, custom } = apisOf(cluster.kc);
const VS = { group: 'networking.istio.io', version: 'v1', plural: 'virtualservices' };

let dir: string;
let ledger: Awaited<ReturnType<typeof testNamespace>>;
let elsewhere: Awaited<ReturnType<typeof testNamespace>>;
let writer: { token: string; identity: string };
let admin: { token: string; identity: string; kubeconfig: string };
let node: string;
let genuine: string;
let began: Date;

const adminEnv = () => ({ ...process.env, KUBECONFIG: admin.kubeconfig, CLUSTERCONFIG: '' });
const asAdmin = (args: string[]) => runCli(args, { env: adminEnv(), cwd: dir });

/** A client of the cluster as the identity that may only create ConfigMaps. */
function writerApi(): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(cluster.credentials, { w: { token: writer.token } }, { w: 'w' }, 'w'));
  return kc.makeApiClient(CoreV1Api);
}

const past = new Date(Date.now() - 86_400_000).toISOString();
const header = (runId: string, namespace: string, writer = { username: 'system:serviceaccount:x:y' }) =>
  JSON.stringify({
    v: 3,
    runId,
    namespace,
    started: past,
    expires: past,
    title: 'harmless',
    writer,
    key: LEDGER_KEY_SECRET,
  });

/** What a forger would write: the record of changes whose undoing grants them power. */
function forgedEntries(namespace: string) {
  const ref = (apiVersion: string, plural: string, name: string, ns?: string) => ({
    apiVersion,
    plural,
    namespaced: ns !== undefined,
    noun: plural,
    name,
    ...(ns ? { namespace: ns } : {}),
  });
  return {
    // "Deleted" a binding of the forger to cluster-admin: a revert would create it.
    'o-rbac': {
      ref: ref('rbac.authorization.k8s.io/v1', 'clusterrolebindings', 'chaoskit-restore'),
      activities: ['chaoscluster.crd.actions.delete_cluster_custom_object'],
      original: {},
      written: {},
      deleted: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'chaoskit-restore' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'ServiceAccount', name: 'writer', namespace }],
      },
    },
    // "Uncordoned" a node: a revert would cordon it.
    'o-node': {
      ref: ref('v1', 'nodes', node),
      activities: ['chaoscluster.node.actions.uncordon_node'],
      original: { '/spec/unschedulable': { present: true, value: true } },
      written: { '/spec/unschedulable': { present: false } },
    },
    // "Deleted" a privileged pod: a revert would create it.
    'o-pod': {
      ref: ref('v1', 'pods', 'root-shell', namespace),
      activities: ['chaoscluster.pod.actions.delete_pods'],
      original: {},
      written: {},
      deleted: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'root-shell', namespace },
        spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
      },
    },
    // "Removed" a fault: a revert would inject a 100 % abort.
    'o-mesh': {
      ref: ref('networking.istio.io/v1', 'virtualservices', 'reviews', namespace),
      activities: ['chaosmesh.fault.actions.remove_abort_fault'],
      original: {
        '/spec/http/0/fault': {
          present: true,
          value: { abort: { httpStatus: 503, percentage: { value: 100 } } },
        },
      },
      written: { '/spec/http/0/fault': { present: false } },
    },
  };
}

const configMap = (name: string, namespace: string, data: Record<string, string>) => ({
  metadata: { name, namespace, labels: { 'chaoskit.io/ledger': 'true' } },
  data,
});

/** The cluster where the forgeries aim: what must not change. */
async function targets() {
  const bindings = (await rbac.listClusterRoleBinding()).items.map((b) => b.metadata?.name);
  const n = await core.readNode({ name: node });
  const pods = (await core.listNamespacedPod({ namespace: ledger.name })).items.map((p) => p.metadata?.name);
  const vs = (await custom.getNamespacedCustomObject({ ...VS, namespace: ledger.name, name: 'reviews' })) as {
    spec: unknown;
  };
  return {
    restore: bindings.includes('chaoskit-restore'),
    unschedulable: n.spec?.unschedulable ?? false,
    pods,
    vs: vs.spec,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-forgery-'));
  ledger = await testNamespace(cluster.kc, 'forgery');
  elsewhere = await testNamespace(cluster.kc, 'forgery-other');
  node = ledger.name;
  await core.createNode({
    body: {
      metadata: { name: node, labels: { type: 'kwok' }, annotations: { 'kwok.x-k8s.io/node': 'fake' } },
      // No other file's pod may land on it: the node is deleted at the end.
      spec: { taints: [{ key: 'chaoskit.io/forgery-test', value: 'true', effect: 'NoSchedule' }] },
    },
  });
  await custom.createNamespacedCustomObject({
    ...VS,
    namespace: ledger.name,
    body: {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'reviews' },
      spec: { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews' } }] }] },
    },
  });
  // The forger: may create ConfigMaps in every namespace, nothing else.
  await rbac.createClusterRole({
    body: {
      metadata: { name: `${ledger.name}-cm` },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
    },
  });
  writer = await serviceAccountToken(cluster.kc, ledger.name, 'writer', [
    { role: `${ledger.name}-cm`, clusterBinding: `${ledger.name}-cm` },
  ]);
  const a = await serviceAccountToken(cluster.kc, ledger.name, 'admin', [
    { role: 'cluster-admin', clusterBinding: `${ledger.name}-admin` },
  ]);
  const kubeconfig = await tokenKubeconfig(join(dir, 'admin.kubeconfig'), cluster.credentials, a.token);
  admin = { ...a, kubeconfig };
  // A genuine run, killed with its change in place: its record and the ledger key exist.
  genuine = await killedAfter(
    dir,
    'genuine',
    {
      title: 'genuine',
      description: 'a real run, killed',
      method: [
        {
          type: 'action',
          name: 'scale',
          provider: python('chaoscluster.node.actions', 'cordon_node', { name: node }),
          pauses: { after: 120 },
        },
      ],
    },
    1,
    { env: adminEnv(), args: ['--ledger-namespace', ledger.name] },
  );
  await asAdmin(['revert', genuine, '--ledger-namespace', ledger.name]).then((r) =>
    expect(r.code, r.stderr).toBe(0),
  );
  genuine = await killedAfter(
    dir,
    'genuine2',
    {
      title: 'genuine again',
      description: 'a real run whose record stays',
      method: [
        {
          type: 'action',
          name: 'fault',
          provider: python('chaosmesh.fault.actions', 'add_delay_fault', {
            virtual_service_name: 'reviews',
            ns: ledger.name,
            version: 'networking.istio.io/v1',
            fixed_delay: '1s',
            percentage: 10,
            routes: [{ destination: { host: 'reviews' } }],
          }),
          pauses: { after: 120 },
        },
      ],
    },
    1,
    { env: adminEnv(), args: ['--ledger-namespace', ledger.name] },
  );

  // The forgeries, written by the identity that may only create ConfigMaps.
  const api = writerApi();
  const entries = forgedEntries(ledger.name);
  const plain = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)]));
  const fakeMac = (o: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(o).flatMap(([k, v]) => [
        [k, v],
        [`${k}.mac`, 'ab'.repeat(32)],
      ]),
    );
  // An older chaoskit's shape: no seal at all.
  await api.createNamespacedConfigMap({
    namespace: ledger.name,
    body: configMap('chaoskit-run-forged-plain', ledger.name, plain(entries)),
  });
  // The current shape, with made-up seals.
  await api.createNamespacedConfigMap({
    namespace: ledger.name,
    body: configMap(
      'chaoskit-run-forged-mac',
      ledger.name,
      fakeMac({ run: header('forged-mac', ledger.name), ...plain(entries) }),
    ),
  });
  // The genuine record's sealed values, copied under another name, with the forged entries.
  const real = await core.readNamespacedConfigMap({
    name: `chaoskit-run-${genuine}`,
    namespace: ledger.name,
  });
  await api.createNamespacedConfigMap({
    namespace: ledger.name,
    body: configMap('chaoskit-run-forged-copy', ledger.name, { ...real.data, ...fakeMac(plain(entries)) }),
  });
  // The same in another namespace (seen by status -A).
  await api.createNamespacedConfigMap({
    namespace: elsewhere.name,
    body: configMap(
      'chaoskit-run-forged-away',
      elsewhere.name,
      fakeMac({ run: header('forged-away', elsewhere.name), ...plain(entries) }),
    ),
  });
  began = new Date();
});

afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: `${ledger.name}-cm` }).catch(() => undefined);
  await rbac.deleteClusterRoleBinding({ name: `${ledger.name}-admin` }).catch(() => undefined);
  await rbac.deleteClusterRoleBinding({ name: 'chaoskit-restore' }).catch(() => undefined);
  await rbac.deleteClusterRole({ name: `${ledger.name}-cm` }).catch(() => undefined);
  await core.deleteNode({ name: node }).catch(() => undefined);
  await ledger.remove();
  await elsewhere.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('forged records', () => {
  it('status lists the genuine run and names every forged record as not verified', async () => {
    const before = await targets();
    const listed = await asAdmin(['status', '--ledger-namespace', ledger.name, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const { runs, not_verified } = JSON.parse(listed.stdout) as {
      runs: Array<{ runId: string }>;
      not_verified: Array<{ where: string; problem: string }>;
    };
    expect(runs.map((r) => r.runId)).toEqual([genuine]);
    const named = not_verified.map((p) => p.where);
    for (const forged of ['forged-plain', 'forged-mac', 'forged-copy'])
      expect(named).toContain(`ConfigMap ${ledger.name}/chaoskit-run-${forged}`);
    const all = await asAdmin(['status', '-A', '--ledger-namespace', ledger.name, '--json']);
    expect(JSON.parse(all.stdout).not_verified.map((p: { where: string }) => p.where)).toContain(
      `ConfigMap ${elsewhere.name}/chaoskit-run-forged-away`,
    );
    expect(await targets()).toEqual(before);
  });

  it.each(['forged-plain', 'forged-mac', 'forged-copy'])(
    'revert %s refuses, naming the ConfigMap, and changes nothing',
    async (runId) => {
      const before = await targets();
      const reverted = await asAdmin(['revert', runId, '--ledger-namespace', ledger.name]);
      expect(reverted.code).toBe(1);
      expect(reverted.stderr).toContain(`ConfigMap ${ledger.name}/chaoskit-run-${runId}`);
      expect(reverted.stderr).toMatch(/does not verify: nothing was done/);
      expect(await targets()).toEqual(before);
    },
  );

  it('revert --expired undoes nothing forged, names each forgery, and the administrator wrote nothing', async () => {
    const before = await targets();
    const reverted = await asAdmin(['revert', '--expired', '--yes', '--ledger-namespace', ledger.name]);
    // What does not verify is no expired run's: named, not counted as left (D158).
    expect(reverted.code).toBe(0);
    for (const forged of ['forged-plain', 'forged-mac', 'forged-copy'])
      expect(reverted.stderr).toContain(`ConfigMap ${ledger.name}/chaoskit-run-${forged}`);
    expect(reverted.stdout).toMatch(/no expired run/);
    expect(await targets()).toEqual(before);
    expect(before).toMatchObject({ restore: false, unschedulable: false });
    const writes = (await readAuditLog(cluster.auditLogPath, { user: admin.identity, since: began })).filter(
      isMutation,
    );
    expect(writes.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});

describe('a record sealed with the real key', () => {
  it('is still refused when it claims what its activity cannot do', async () => {
    // The operators can read the key: as if it leaked, or a bug wrote a wrong record.
    const operator = transportIn({ CLUSTERCONFIG: cluster.kubeconfigPath });
    const key = (await readLedgerKey(operator, ledger.name, LEDGER_KEY_SECRET))!;
    const writer = (await identityOf(operator))!;
    const runId = 'sealed-but-wrong';
    const name = `chaoskit-run-${runId}`;
    const entries = forgedEntries(ledger.name);
    const created = await core.createNamespacedConfigMap({
      namespace: ledger.name,
      body: configMap(name, ledger.name, {}),
    });
    const data: Record<string, string> = {};
    const seal = (k: string, text: string) => {
      data[k] = text;
      data[`${k}.mac`] = key.seal(recordBinding(ledger.name, name, created.metadata!.uid!, k), text);
    };
    seal('run', header(runId, ledger.name, writer));
    seal('o-rbac', JSON.stringify(entries['o-rbac']));
    seal(
      'o-node',
      JSON.stringify({
        ...entries['o-node'],
        activities: ['chaoscluster.crd.actions.patch_cluster_custom_object'],
      }),
    );
    await core.replaceNamespacedConfigMap({ name, namespace: ledger.name, body: { ...created, data } });
    const before = await targets();
    const since = new Date();
    const reverted = await asAdmin(['revert', runId, '--ledger-namespace', ledger.name]);
    expect(reverted.code).toBe(1);
    expect(reverted.stderr).toMatch(
      /delete_cluster_custom_object did delete clusterrolebindings\.rbac\.authorization\.k8s\.io, which that activity cannot do/,
    );
    expect(reverted.stderr).toMatch(
      /patch_cluster_custom_object did patch nodes, which that activity cannot do/,
    );
    expect(reverted.stdout).toMatch(/0 undone, 0 already as they were, 2 refused/);
    expect(await targets()).toEqual(before);
    const writes = (await readAuditLog(cluster.auditLogPath, { user: admin.identity, since })).filter(
      isMutation,
    );
    expect(writes).toEqual([]);
  });
});
