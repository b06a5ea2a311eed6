// Every road a write takes to the cluster goes through the one chain: a single write, a batch of
// deletes, a batch of evictions, a single eviction. Each is recorded in the run's ledger before
// it is sent, is only a server-side dry run in plan mode, and is refused by the rails before any
// request. An identity of its own makes the requests, so that the apiserver's audit log shows
// exactly what the chain sent; the transport's middleware counts the same requests.

import { type AuditEvent, isDryRun, isMutation, readAuditLog } from '@chaoskit/cluster';
import { deploy, serviceAccountToken, sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { CoreV1Api, type V1ConfigMap, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient } from '../auth/cluster-client.js';
import { isChaosError } from '../errors/errors.js';
import { Safety, type SafetyOptions } from '../rails/safety.js';
import { RunLedger } from '../record/ledger.js';
import { readRecord } from '../record/read.js';
import { LedgerKeys } from '../record/seal.js';
import { connectionFor } from '../transport/connection.js';
import type { EvictOp } from '../transport/ops.js';
import { ConfigMaps, Pods } from '../transport/resources.js';
import { type ResponseEvent, Transport } from '../transport/transport.js';
import { deleteAll } from './bulk.js';
import { KubeClient } from './kube-client.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
let ns: Awaited<ReturnType<typeof testNamespace>>;
let identity: string;
let connection: ReturnType<typeof connectionFor>;

beforeAll(async () => {
  ns = await testNamespace(cluster.kc, 'writes');
  const sa = await serviceAccountToken(cluster.kc, ns.name, 'writer', [{ role: 'admin' }]);
  identity = sa.identity;
  connection = connectionFor(
    createClusterClient({
      CLUSTER_HOST: cluster.credentials.server,
      CLUSTER_API_KEY: sa.token,
      CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
    }),
  );
});
afterAll(async () => {
  await ns.remove();
});

let runs = 0;
/** A client of the writer identity, as an activity's in a run (its own run: its own record). */
function writer(options: { dryRun?: boolean; safety?: SafetyOptions } = {}) {
  const runId = `writes-${process.pid}-${runs++}`;
  const ledger = new RunLedger({
    runId,
    namespace: ns.name,
    ttlSeconds: 3600,
    started: new Date().toISOString(),
  });
  const kube = new KubeClient(connection, {
    activity: 'chaoskit.test.actions.write',
    ledger: ledger.for(new Transport(connection)),
    safety: new Safety(options.safety),
    ...(options.dryRun ? { dryRun: true } : {}),
  });
  return { kube, runId, record: `chaoskit-run-${runId}` };
}

const configMaps = async (...names: string[]) => {
  for (const name of names)
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name }, data: { a: '1' } },
    });
};
const readMap = (name: string) => core.readNamespacedConfigMap({ name, namespace: ns.name });
const podsOf = async (app: string) =>
  (await core.listNamespacedPod({ namespace: ns.name, labelSelector: `app=${app}` })).items.filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
const eviction = (pod: V1Pod): EvictOp => ({
  verb: 'evict',
  type: Pods,
  name: pod.metadata!.name!,
  namespace: ns.name,
});

/** The writer's requests, as the apiserver logged them. */
const audited = async () => readAuditLog(cluster.auditLogPath, { user: identity });
const named = (e: AuditEvent) =>
  `${e.verb} ${e.objectRef?.resource}${e.objectRef?.subresource ? `/${e.objectRef.subresource}` : ''} ${e.objectRef?.name ?? ''}`.trim();

describe('every write path records in the run ledger before it sends', () => {
  it('a single write, a batch delete, a batch of evictions, a single eviction', async () => {
    await configMaps('single', 'gone', 'batch-1', 'batch-2');
    await deploy(cluster.kc, ns.name, 'evicted', 2);
    await deploy(cluster.kc, ns.name, 'deleted', 2);
    const [first, second] = await podsOf('evicted');
    const doomed = await podsOf('deleted');

    const paths = {
      single: writer(),
      delete: writer(),
      batch: writer(),
      pods: writer(),
      evictions: writer(),
      eviction: writer(),
    };
    await paths.single.kube.patch(ConfigMaps, 'single', { data: { a: '2' } }, 'merge', {
      namespace: ns.name,
    });
    await paths.delete.kube.delete(ConfigMaps, 'gone', { namespace: ns.name });
    const batch = (await core.listNamespacedConfigMap({ namespace: ns.name })).items.filter((c) =>
      c.metadata?.name?.startsWith('batch-'),
    );
    await deleteAll(paths.batch.kube, ConfigMaps, batch);
    await deleteAll(paths.pods.kube, Pods, doomed, { named: true });
    const evictions = [eviction(first!)];
    const sender = await paths.evictions.kube.batch(evictions);
    await sender.send(evictions[0]!);
    await paths.eviction.kube.createSubresource(
      Pods,
      second!.metadata!.name!,
      'eviction',
      {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: second!.metadata!.name, namespace: ns.name },
      },
      { namespace: ns.name },
    );

    // What each record holds.
    const transport = new Transport(connection);
    const recorded = async (path: { runId: string }) =>
      (await readRecord(transport, ns.name, path.runId, new LedgerKeys(transport))).run;
    expect((await recorded(paths.single))?.objects.map((o) => [o.ref.name, o.original])).toEqual([
      ['single', { '/data/a': { present: true, value: '1' } }],
    ]);
    expect((await recorded(paths.delete))?.objects.map((o) => [o.ref.name, o.deleted?.data])).toEqual([
      ['gone', { a: '1' }],
    ]);
    expect((await recorded(paths.batch))?.objects.map((o) => o.ref.name).sort()).toEqual([
      'batch-1',
      'batch-2',
    ]);
    const pods = (path: { runId: string }) =>
      recorded(path).then((run) => run?.pods.map((p) => [p.how, [...p.names].sort()]));
    expect(await pods(paths.pods)).toEqual([['deleted', doomed.map((p) => p.metadata!.name!).sort()]]);
    expect(await pods(paths.evictions)).toEqual([['evicted', [first!.metadata!.name]]]);
    expect(await pods(paths.eviction)).toEqual([['evicted', [second!.metadata!.name]]]);

    // The changes happened, each after its record was written (the audit log's order).
    expect((await readMap('single')).data).toEqual({ a: '2' });
    const events = (await audited()).filter(isMutation);
    const targets: Record<keyof typeof paths, string[]> = {
      single: ['patch configmaps single'],
      delete: ['delete configmaps gone'],
      batch: ['delete configmaps batch-1', 'delete configmaps batch-2'],
      pods: doomed.map((p) => `delete pods ${p.metadata!.name}`),
      evictions: [`create pods/eviction ${first!.metadata!.name}`],
      eviction: [`create pods/eviction ${second!.metadata!.name}`],
    };
    for (const [path, sent] of Object.entries(targets)) {
      const { record } = paths[path as keyof typeof paths];
      const writes = events.filter((e) => sent.includes(named(e)));
      expect(writes.map(named).sort(), path).toEqual([...sent].sort());
      expect(
        writes.every((e) => (e.responseStatus?.code ?? 500) < 300),
        path,
      ).toBe(true);
      const recordWrites = events.filter((e) => e.objectRef?.name === record);
      expect(recordWrites.length, path).toBeGreaterThan(0);
      expect(
        recordWrites.every((r) =>
          writes.every((w) => r.requestReceivedTimestamp < w.requestReceivedTimestamp),
        ),
        path,
      ).toBe(true);
    }
  });
});

describe('plan mode: every write path is a dry run, and nothing is recorded', () => {
  it('changes nothing; the audit log shows only dryRun=All writes', async () => {
    await configMaps('plan-single', 'plan-gone', 'plan-batch');
    await deploy(cluster.kc, ns.name, 'planned', 2);
    const [pod, other] = await podsOf('planned');
    const before = await Promise.all(['plan-single', 'plan-gone', 'plan-batch'].map(readMap));
    const { kube, runId, record } = writer({ dryRun: true });

    await kube.patch(ConfigMaps, 'plan-single', { data: { a: '2' } }, 'merge', { namespace: ns.name });
    await kube.create(ConfigMaps, { metadata: { name: 'plan-new' } }, { namespace: ns.name });
    await kube.delete(ConfigMaps, 'plan-gone', { namespace: ns.name });
    await deleteAll(kube, ConfigMaps, [before[2]!]);
    await deleteAll(kube, Pods, [pod!], { named: true });
    const evictions = [eviction(other!)];
    await (await kube.batch(evictions)).send(evictions[0]!);
    await kube.createSubresource(Pods, pod!.metadata!.name!, 'eviction', undefined, { namespace: ns.name });

    const after = await Promise.all(['plan-single', 'plan-gone', 'plan-batch'].map(readMap));
    expect(after.map((c) => [c.metadata?.resourceVersion, c.data])).toEqual(
      before.map((c) => [c.metadata?.resourceVersion, c.data]),
    );
    await expect(readMap('plan-new')).rejects.toMatchObject({ code: 404 });
    expect((await podsOf('planned')).map((p) => p.metadata?.uid).sort()).toEqual(
      [pod, other].map((p) => p!.metadata?.uid).sort(),
    );
    const plain = new Transport(connection);
    expect((await readRecord(plain, ns.name, runId, new LedgerKeys(plain))).found).toBe(false);

    const planned = [
      'plan-single',
      'plan-new',
      'plan-gone',
      'plan-batch',
      pod!.metadata!.name,
      other!.metadata!.name,
    ];
    const writes = (await audited()).filter(
      (e) => isMutation(e) && (planned.includes(e.objectRef?.name ?? '') || e.objectRef?.name === record),
    );
    expect(writes.map(named).sort()).toEqual(
      [
        'patch configmaps plan-single',
        'create configmaps plan-new',
        'delete configmaps plan-gone',
        'delete configmaps plan-batch',
        `delete pods ${pod!.metadata!.name}`,
        `create pods/eviction ${other!.metadata!.name}`,
        `create pods/eviction ${pod!.metadata!.name}`,
      ].sort(),
    );
    expect(writes.filter((e) => !isDryRun(e)).map((e) => e.requestURI)).toEqual([]);
  });
});

describe('the rails refuse every write path before any request', () => {
  it('a protected namespace, and a run not confirmed', async () => {
    await configMaps('railed');
    await deploy(cluster.kc, ns.name, 'railed', 1);
    const [pod] = await podsOf('railed');
    const map = await readMap('railed');
    const since = (await audited()).length;

    const guarded = writer({ safety: { protectNamespaces: [ns.name] } }).kube;
    const unconfirmed = writer({ safety: { confirm: async () => false } }).kube;
    const refusals: Array<[string, unknown]> = [];
    const refused = async (path: string, write: () => Promise<unknown>) =>
      refusals.push([
        path,
        await write().then(
          () => 'sent',
          (e: unknown) => e,
        ),
      ]);
    for (const [kube, rail] of [
      [guarded, 'namespace'],
      [unconfirmed, 'confirmation'],
    ] as const) {
      await refused(`${rail}: single`, () =>
        kube.patch(ConfigMaps, 'railed', { data: { a: '2' } }, 'merge', { namespace: ns.name }),
      );
      await refused(`${rail}: create`, () =>
        kube.create(ConfigMaps, { metadata: { name: 'railed-new' } }, { namespace: ns.name }),
      );
      await refused(`${rail}: batch delete`, () => deleteAll(kube, ConfigMaps, [map]));
      await refused(`${rail}: batch of pods`, () => deleteAll(kube, Pods, [pod!], { named: true }));
    }
    // An eviction is exempt from the namespace rail (a drain's, D74): the confirmation refuses it.
    await refused('confirmation: evictions', () => unconfirmed.batch([eviction(pod!)]));
    await refused('confirmation: eviction', () =>
      unconfirmed.createSubresource(Pods, pod!.metadata!.name!, 'eviction', undefined, {
        namespace: ns.name,
      }),
    );

    expect(
      refusals.map(([path, e]) => [path, isChaosError(e, 'Refused') && (e as { rail?: string }).rail]),
    ).toEqual(refusals.map(([path]) => [path, path.split(':')[0]]));
    expect((await audited()).slice(since).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
    expect((await readMap('railed')).metadata?.resourceVersion).toBe(map.metadata?.resourceVersion);
  });
});

describe("the transport's middleware", () => {
  it('sees every request the apiserver received, with its status', async () => {
    const seen: ResponseEvent[] = [];
    const counted = new KubeClient(connection, { middleware: [{ after: (e) => seen.push(e) }] });
    const since = (await audited()).length;
    await counted.create(
      ConfigMaps,
      { metadata: { name: 'counted' }, data: { a: '1' } },
      { namespace: ns.name },
    );
    await counted.get<V1ConfigMap>(ConfigMaps, 'counted', ns.name);
    await counted.patch(ConfigMaps, 'counted', { data: { a: '2' } }, 'merge', { namespace: ns.name });
    await counted.list(ConfigMaps, { namespace: ns.name, limit: 1 });
    await counted.count(Pods, { namespace: ns.name });
    await counted.get(ConfigMaps, 'not-there', ns.name).catch(() => undefined);
    await counted.delete(ConfigMaps, 'counted', { namespace: ns.name });

    const logged = (await audited()).slice(since);
    const path = (uri: string) => uri.split('?')[0];
    expect(seen.map((e) => `${e.path} ${e.status}`).sort()).toEqual(
      logged.map((e) => `${path(e.requestURI)} ${e.responseStatus?.code}`).sort(),
    );
    expect(seen.reduce((n, e) => n + (e.attempts ?? 0), 0)).toBe(logged.length);
  });
});
