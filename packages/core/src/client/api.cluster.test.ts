import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readAuditLog } from '@chaoskit/cluster';
import { sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityFailed } from '../errors/errors.js';
import { ConfigMaps } from '../transport/resources.js';
import { watchUntil } from '../transport/watch-until.js';
import { kubeClient } from './kube-client.js';

const execFileAsync = promisify(execFile);
const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
// The same identity (the admin token) through core's own client.
const kube = kubeClient({
  CLUSTER_HOST: cluster.credentials.server,
  CLUSTER_API_KEY: cluster.credentials.token,
  CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
});
let ns: Awaited<ReturnType<typeof testNamespace>>;
beforeAll(async () => {
  ns = await testNamespace(cluster.kc, 'api');
});
afterAll(async () => {
  await ns.remove();
});

const configMap = (name: string, data: Record<string, string> = {}) => ({
  metadata: { name, labels: { set: 'api' } },
  data,
});

describe('kube.list on the cluster', () => {
  it('reads every object page by page (the audit log shows one list request per page)', async () => {
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        core.createNamespacedConfigMap({
          namespace: ns.name,
          body: configMap(`cm-${i}`, { big: 'x'.repeat(2000) }),
        }),
      ),
    );
    const since = new Date();
    const items = await kube.list<V1ConfigMap>(ConfigMaps, {
      namespace: ns.name,
      labelSelector: 'set=api',
      limit: 2,
    });
    expect(items.map((c) => c.metadata?.name).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `cm-${i}`));
    expect(items[0]?.data?.big).toHaveLength(2000);
    const lists = (await readAuditLog(cluster.auditLogPath, { user: cluster.users.token, since })).filter(
      (e) => e.verb === 'list' && e.objectRef?.resource === 'configmaps' && e.objectRef.namespace === ns.name,
    );
    expect(lists).toHaveLength(4);
  });

  it("reads only the metadata when asked, and counts in one request of the server's table", async () => {
    const { items } = await kube.listWithVersion<V1ConfigMap & { kind?: string }>(ConfigMaps, {
      namespace: ns.name,
      labelSelector: 'set=api',
      metadataOnly: true,
    });
    expect(items).toHaveLength(7);
    expect(items[0]).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { labels: { set: 'api' } } });
    expect(items[0]?.data).toBeUndefined();
    // The server sends each one's managedFields (the client's own create); the list drops them.
    const [sent] = (await core.listNamespacedConfigMap({ namespace: ns.name, labelSelector: 'set=api' }))
      .items;
    expect(sent?.metadata?.managedFields?.length).toBeGreaterThan(0);
    expect(items.every((i) => i.metadata && i.metadata.managedFields === undefined)).toBe(true);
    // Only the members asked for, each item no more than its metadata's.
    const names = await kube.list<V1ConfigMap>(ConfigMaps, {
      namespace: ns.name,
      labelSelector: 'set=api',
      metadataOnly: true,
      metadataFields: ['name', 'namespace'],
    });
    expect(names.map((i) => i.metadata?.name).sort()).toEqual(items.map((i) => i.metadata?.name).sort());
    expect(names.every((i) => Object.keys(i).join() === 'metadata')).toBe(true);
    expect(names[0]?.metadata).toEqual({ name: names[0]?.metadata?.name, namespace: ns.name });
    const since = new Date();
    const selection = { namespace: ns.name, labelSelector: 'set=api' };
    expect(await kube.count(ConfigMaps, selection)).toBe(7);
    await core.deleteNamespacedConfigMap({ name: 'cm-0', namespace: ns.name });
    expect(await kube.count(ConfigMaps, selection)).toBe(6);
    const lists = (await readAuditLog(cluster.auditLogPath, { user: cluster.users.token, since })).filter(
      (e) => e.verb === 'list' && e.objectRef?.resource === 'configmaps' && e.objectRef.namespace === ns.name,
    );
    expect(lists).toHaveLength(2);
  });
});

describe("core's connections to the apiserver (counted by ss)", () => {
  // A process of its own, so that only core's connections are counted: it sends its requests,
  // then asks ss for its own established connections to the apiserver's port.
  const connectionsAfter = async (requests: number, concurrent: boolean): Promise<number> => {
    const port = new URL(cluster.credentials.server).port;
    const script = `
      import { execFileSync } from 'node:child_process';
      import { kubeClient, Namespaces } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
      const kube = kubeClient(JSON.parse(process.env.SECRETS));
      const get = () => kube.get(Namespaces, 'default');
      if (${concurrent}) await Promise.all(Array.from({ length: ${requests} }, get));
      else for (let i = 0; i < ${requests}; i++) await get();
      const ss = execFileSync('ss', ['-tnpH', 'state', 'established', '( dport = :${port} )'], { encoding: 'utf8' });
      console.log(ss.split('\\n').filter((l) => l.includes('pid=' + process.pid + ',')).length);
    `;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        ...process.env,
        SECRETS: JSON.stringify({
          CLUSTER_HOST: cluster.credentials.server,
          CLUSTER_API_KEY: cluster.credentials.token,
          CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
        }),
      },
    });
    return Number(stdout.trim());
  };

  it('sends 50 sequential requests over one connection', async () => {
    expect(await connectionsAfter(50, false)).toBe(1);
  });

  it('sends 50 concurrent requests over one HTTP/2 connection', async () => {
    expect(await connectionsAfter(50, true)).toBe(1);
  });
});

describe('watchUntil on the cluster', () => {
  it('returns as soon as the condition holds, not at a poll interval', async () => {
    await core.createNamespacedConfigMap({ namespace: ns.name, body: configMap('flag', { state: 'off' }) });
    const started = Date.now();
    const waiting = watchUntil<V1ConfigMap, string>({
      kube,
      type: ConfigMaps,
      select: { namespace: ns.name, fieldSelector: 'metadata.name=flag' },
      until: (items) => (items[0]?.data?.state === 'on' ? 'on' : undefined),
      timeoutMs: 20_000,
      onTimeout: () => new ActivityFailed('never on'),
    });
    setTimeout(() => {
      core
        .replaceNamespacedConfigMap({
          name: 'flag',
          namespace: ns.name,
          body: configMap('flag', { state: 'on' }),
        })
        .catch(() => undefined);
    }, 500);
    expect(await waiting).toBe('on');
    // Logged, not asserted: timing is for benchmarks.
    console.log(`watchUntil returned ${Date.now() - started} ms after start (change made at 500 ms)`);
  });

  it('throws the caller’s error when the total timeout passes', async () => {
    const err = await watchUntil<V1ConfigMap, string>({
      kube,
      type: ConfigMaps,
      select: { namespace: ns.name, fieldSelector: 'metadata.name=flag' },
      until: (items) => (items[0]?.data?.state === 'never' ? 'x' : undefined),
      timeoutMs: 1500,
      onTimeout: (items) => new ActivityFailed(`flag is ${items[0]?.data?.state}, expected never`),
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('flag is on, expected never');
  });

  it('re-opens the watch when the server closes it and still sees a later change', async () => {
    const progress: number[] = [];
    const waiting = watchUntil<V1ConfigMap, string>({
      kube,
      type: ConfigMaps,
      select: { namespace: ns.name, fieldSelector: 'metadata.name=flag' },
      until: (items) => (items[0]?.data?.state === 'late' ? 'late' : undefined),
      timeoutMs: 20_000,
      onTimeout: () => new ActivityFailed('missed'),
      serverTimeoutSeconds: 1,
      progress: (elapsed) => progress.push(elapsed),
      progressEveryMs: 500,
    });
    const since = new Date();
    setTimeout(() => {
      core
        .replaceNamespacedConfigMap({
          name: 'flag',
          namespace: ns.name,
          body: configMap('flag', { state: 'late' }),
        })
        .catch(() => undefined);
    }, 3500);
    expect(await waiting).toBe('late');
    const watches = (await readAuditLog(cluster.auditLogPath, { user: cluster.users.token, since })).filter(
      (e) =>
        e.verb === 'watch' && e.objectRef?.resource === 'configmaps' && e.objectRef.namespace === ns.name,
    );
    expect(watches.length).toBeGreaterThanOrEqual(3);
    expect(progress.length).toBeGreaterThanOrEqual(5);
  });
});
