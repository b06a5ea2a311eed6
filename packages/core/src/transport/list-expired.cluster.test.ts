// A list read page by page whose continue token expires (etcd compacted past the list's
// revision, so the apiserver answers the next page 410 Gone) starts again from its first page,
// a bounded number of times; the pages read before are never returned. The 410s are the real
// apiserver's: the test compacts the local cluster's etcd right after a first page arrives.

import { readAuditLog } from '@chaoskit/cluster';
import { compactEtcd, sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClusterClient } from '../auth/cluster-client.js';
import { KubeClient } from '../client/kube-client.js';
import { isChaosError } from '../errors/errors.js';
import { type Connection, connectionFor } from './connection.js';
import { LIST_RESTARTS } from './lists.js';
import { ConfigMaps } from './resources.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const connection = connectionFor(
  createClusterClient({
    CLUSTER_HOST: cluster.credentials.server,
    CLUSTER_API_KEY: cluster.credentials.token,
    CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
  }),
);
const NAMES = Array.from({ length: 7 }, (_, i) => `cm-${i}`);
let ns: Awaited<ReturnType<typeof testNamespace>>;

beforeAll(async () => {
  ns = await testNamespace(cluster.kc, 'expired');
  for (const name of NAMES)
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name, labels: { set: 'expired' } } },
    });
});
afterAll(async () => {
  await ns.remove();
});

/**
 * The connection, except that after the first page of a list arrives (the first `times` times)
 * the cluster moves on and etcd is compacted to now: the list's continue token is then too old.
 */
function compactingAfterFirstPages(times: number): { connection: Connection; compactions: () => number } {
  let done = 0;
  const wrapped = Object.create(connection) as Connection;
  wrapped.send = async (request) => {
    const res = await connection.send(request);
    if (request.method === 'GET' && request.query?.limit && !request.query.continue && done < times) {
      done++;
      // A write after the list's revision, so that compacting to now removes that revision.
      await core.createNamespacedConfigMap({
        namespace: ns.name,
        body: { metadata: { name: `churn-${process.hrtime.bigint()}` } },
      });
      await compactEtcd(cluster.etcdUrl);
    }
    return res;
  };
  return { connection: wrapped, compactions: () => done };
}

/** The configmap lists of the test's namespace since `since`: whether each continued a list, and its status. */
async function listRequests(since: Date) {
  return (await readAuditLog(cluster.auditLogPath, { user: cluster.users.token, since }))
    .filter(
      (e) => e.verb === 'list' && e.objectRef?.resource === 'configmaps' && e.objectRef.namespace === ns.name,
    )
    .map(
      (e) => `${/[?&]continue=/.test(e.requestURI) ? 'next page' : 'first page'} ${e.responseStatus?.code}`,
    );
}

it('a list whose next page expired (410) starts again and returns every object once', async () => {
  const { connection: expiring, compactions } = compactingAfterFirstPages(1);
  const since = new Date();
  const { items } = await new KubeClient(expiring).listWithVersion<V1ConfigMap>(ConfigMaps, {
    namespace: ns.name,
    labelSelector: 'set=expired',
    limit: 2,
  });
  expect(compactions()).toBe(1);
  expect(items.map((c) => c.metadata?.name)).toEqual(NAMES);
  const requests = await listRequests(since);
  process.stdout.write(`list-expired: one compaction: ${requests.join(', ')}\n`);
  // The apiserver refused the continuation, and the list was read again from its first page.
  expect(requests).toEqual([
    'first page 200',
    'next page 410',
    'first page 200',
    'next page 200',
    'next page 200',
    'next page 200',
  ]);
});

it(`a list that keeps expiring fails after ${LIST_RESTARTS} restarts, returning nothing`, async () => {
  const { connection: expiring } = compactingAfterFirstPages(Number.POSITIVE_INFINITY);
  const since = new Date();
  const failure = await new KubeClient(expiring)
    .list<V1ConfigMap>(ConfigMaps, { namespace: ns.name, labelSelector: 'set=expired', limit: 2 })
    .then(
      (items) => new Error(`returned ${items.length} items`),
      (err: unknown) => err,
    );
  expect(isChaosError(failure, 'ActivityFailed'), String(failure)).toBe(true);
  expect((failure as Error).message).toBe(
    `list configmaps in namespace '${ns.name}': the list expired ${LIST_RESTARTS + 1} times while its pages were read (410 Gone: the cluster compacted its history before the next page); nothing was done with the pages read`,
  );
  const requests = await listRequests(since);
  process.stdout.write(`list-expired: a compaction after every first page: ${requests.join(', ')}\n`);
  expect(requests).toEqual(
    Array.from({ length: LIST_RESTARTS + 1 }, () => ['first page 200', 'next page 410']).flat(),
  );
});
