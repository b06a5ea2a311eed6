// The field, not the lab: activities on an apiserver that restarts under them, and on one that
// is throttled (low in-flight limits, real 429s). Each on a local cluster of its own, since
// both would disturb every other test of the shared one.

import { readFile } from 'node:fs/promises';
import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';
import { deploymentFullyAvailable } from '@chaoskit/chaoscluster-deployment';
import { drainNodes } from '@chaoskit/chaoscluster-node';
import { terminatePods } from '@chaoskit/chaoscluster-pod';
import { type LocalCluster, readAuditLog, start } from '@chaoskit/cluster';
import { deploy, until } from '@chaoskit/cluster/testing';
import { Deployments, isChaosError, kubeClient } from '@chaoskit/core';
import { closeConnections } from '@chaoskit/core/runner';
import {
  CoreV1Api,
  KubeConfig as Kc,
  type KubeConfig,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The activities act as a user bound to cluster-admin through RBAC, not as a member of
// system:masters, which the apiserver exempts from its in-flight limits.
const secretsOf = (c: LocalCluster) => ({
  CLUSTER_HOST: c.credentials.server,
  CLUSTER_API_KEY: c.credentials.unprivilegedToken,
  CLUSTER_CA_CERT_FILE: c.credentials.caFile,
});

async function asClusterAdmin(c: LocalCluster): Promise<void> {
  await kubeConfigOf(c)
    .makeApiClient(RbacAuthorizationV1Api)
    .createClusterRoleBinding({
      body: {
        metadata: { name: 'activities-as-admin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: c.users.unprivileged }],
      },
    });
}

function kubeConfigOf(c: LocalCluster): KubeConfig {
  const kc = new Kc();
  kc.loadFromString(c.kubeconfig);
  return kc;
}

/** The apiserver's /readyz status, or the error that stood in for it. */
async function readyz(c: LocalCluster): Promise<string> {
  const ca = await readFile(c.credentials.caFile);
  return new Promise((resolve) => {
    httpsGet(`${c.credentials.server}/readyz`, { ca }, (res) => {
      res.resume();
      resolve(String(res.statusCode));
    }).on('error', (err) => resolve(err.message));
  });
}

/** A deployment of the test's own cluster: large ones take their time there. */
const deployOn = (
  kc: KubeConfig,
  ns: string,
  name: string,
  replicas: number,
  nodeSelector?: Record<string, string>,
) =>
  deploy(kc, ns, name, replicas, {
    timeoutMs: 180_000,
    ...(nodeSelector ? { podSpec: { nodeSelector } } : {}),
  });

// The file's three clusters start at once, before its first test: a start mostly waits on its
// components, and the throttled pair would otherwise start only once the restarts are done.
let clusters: Promise<PromiseSettledResult<LocalCluster>[]>;
beforeAll(() => {
  clusters = Promise.allSettled([
    start({ provider: 'local', nodes: 2, mesh: false }),
    // Low in-flight limits, priority and fairness off (the local provider's default): the
    // apiserver answers 429 with Retry-After: 1 to whatever is over the limit.
    start({
      provider: 'local',
      nodes: 2,
      mesh: false,
      apiserverArgs: ['--max-requests-inflight=4', '--max-mutating-requests-inflight=1'],
    }),
    start({ provider: 'local', nodes: 2, mesh: false }),
  ]);
});
// Each describe stops its own once done; this stops those a failed describe never took.
afterAll(async () => {
  for (const c of await clusters) if (c.status === 'fulfilled') await c.value.stop();
});

/** The file's cluster `i` (restarts, throttled, plain), once started, as cluster-admin. */
async function started(i: number): Promise<LocalCluster> {
  const c = (await clusters)[i]!;
  if (c.status === 'rejected') throw c.reason;
  await asClusterAdmin(c.value);
  return c.value;
}

describe('an apiserver that restarts under the activity', () => {
  let cluster: LocalCluster;
  beforeAll(async () => {
    cluster = await started(0);
  }, 300_000);
  afterAll(async () => {
    closeConnections();
    await cluster?.stop();
  });

  it('a deployment wait re-opens its watch and completes once the replicas are back', async () => {
    const kc = kubeConfigOf(cluster);
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'restart-wait' } } });
    await deployOn(kc, 'restart-wait', 'web', 2);
    await kubeClient(secretsOf(cluster)).patch(Deployments, 'web', { spec: { replicas: 3 } }, 'merge', {
      namespace: 'restart-wait',
    });
    const waiting = deploymentFullyAvailable({
      name: 'web',
      ns: 'restart-wait',
      timeout: 90,
      secrets: secretsOf(cluster),
    });
    await new Promise((r) => setTimeout(r, 300));
    await cluster.restartApiserver(2000);
    await expect(waiting).resolves.toBe(true);
  }, 180_000);

  it('a drain rides out the restart: every pod evicted, the node cordoned', async () => {
    const kc = kubeConfigOf(cluster);
    const core = kc.makeApiClient(CoreV1Api);
    const node = cluster.nodes[0]!;
    await core.createNamespace({ body: { metadata: { name: 'restart-drain' } } });
    // A node selector, not a nodeName: replacements go through the scheduler, which honours the cordon.
    await deployOn(kc, 'restart-drain', 'pinned', 12, { 'kubernetes.io/hostname': node });
    const draining = drainNodes({ name: node, timeout: 90, secrets: secretsOf(cluster) });
    await new Promise((r) => setTimeout(r, 100));
    await cluster.restartApiserver(2000);
    const result = await draining;
    expect(result.nodes).toEqual([node]);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);
    let left: string[] = [];
    await until(
      'no pod left on the drained node',
      async () => {
        const pods = await core.listNamespacedPod({
          namespace: 'restart-drain',
          fieldSelector: `spec.nodeName=${node}`,
        });
        // What is left, with when it was made, says on failure whether the drain missed it.
        left = pods.items
          .filter((p) => !p.metadata?.deletionTimestamp)
          .map((p) => `${p.metadata?.name} (created ${p.metadata?.creationTimestamp?.toISOString()})`);
        return left.length === 0;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${left.join(', ')}; the drain evicted ${result.evicted.join(', ')}`);
    });
  }, 180_000);

  it('an activity sent the moment a restarted apiserver listens, before it is ready, is not refused', async () => {
    // The old apiserver closes the pool's idle connection cleanly, so no failure announces the
    // restart; the new one answers before its RBAC informers have synced and would refuse (403).
    const secrets = secretsOf(cluster);
    await expect(
      deploymentFullyAvailable({ name: 'web', ns: 'restart-wait', timeout: 60, secrets }),
    ).resolves.toBe(true);
    const { hostname, port } = new URL(cluster.credentials.server);
    const listening = () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    const restarted = cluster.restartApiserver(500);
    await until('the old apiserver gone', async () => !(await listening()), 30_000, 10);
    await until('the new apiserver listening', listening, 60_000, 10);
    const ready = await readyz(cluster);
    const since = new Date();
    const result = await terminatePods({ ns: 'restart-wait', labelSelector: 'app=web', qty: 1, secrets });
    await restarted;
    const refused = (
      await readAuditLog(cluster.auditLogPath, { user: cluster.users.unprivileged, since })
    ).filter((e) => e.responseStatus?.code === 403).length;
    console.log(`/readyz when the activity started: ${ready}; requests refused 403 on the way: ${refused}`);
    expect(result.pods).toHaveLength(1);
    await until(
      'the terminated pod gone',
      async () =>
        !(
          await kubeConfigOf(cluster)
            .makeApiClient(CoreV1Api)
            .listNamespacedPod({ namespace: 'restart-wait' })
        ).items.some((p) => p.metadata?.name === result.pods[0] && !p.metadata?.deletionTimestamp),
      60_000,
    );
  }, 180_000);

  it('while the apiserver is down, an activity fails after its retries with the cause and where the address came from, not a bare fetch failure', async () => {
    const down = cluster.restartApiserver(20_000);
    await new Promise((r) => setTimeout(r, 1000));
    const err = await deploymentFullyAvailable({
      name: 'web',
      ns: 'restart-wait',
      timeout: 5,
      secrets: secretsOf(cluster),
    }).catch((e: unknown) => e);
    await down;
    expect(isChaosError(err)).toBe(true);
    expect((err as Error).message).not.toMatch(/fetch failed/);
    expect((err as Error).message).toMatch(/connection refused|did not become|timed out|within/);
  }, 180_000);
});

describe('a throttled apiserver (real 429s)', () => {
  let plain: LocalCluster;
  let throttled: LocalCluster;
  beforeAll(async () => {
    [throttled, plain] = await Promise.all([started(1), started(2)]);
  }, 300_000);
  afterAll(async () => {
    closeConnections();
    await throttled?.stop();
    await plain?.stop();
  });

  /** The requests of the activity's identity since `since`, and how many were answered 429. */
  async function requests(c: LocalCluster, since: Date) {
    const events = await readAuditLog(c.auditLogPath, { user: c.users.unprivileged, since });
    return { total: events.length, throttled: events.filter((e) => e.responseStatus?.code === 429).length };
  }

  /**
   * `act` on the unthrottled cluster, then on the throttled one; says how many requests each
   * took, and asserts that the throttled run met 429s and took at most 1.5 times the requests of
   * the unthrottled one. Gives the throttled run's result.
   */
  async function unthrottledThenThrottled<R>(
    what: string,
    act: (c: LocalCluster) => Promise<{ result: R; total: number; throttled: number }>,
  ): Promise<R> {
    const unthrottled = await act(plain);
    const limited = await act(throttled);
    console.log(
      `${what}: unthrottled ${unthrottled.total} requests; throttled ${limited.total} requests, ${limited.throttled} answered 429`,
    );
    expect(limited.throttled).toBeGreaterThan(0);
    expect(limited.total).toBeLessThanOrEqual(1.5 * unthrottled.total);
    return limited.result;
  }

  async function terminate(c: LocalCluster) {
    const kc = kubeConfigOf(c);
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'many' } } });
    // On the first node only: the drain below drains the second.
    await deployOn(kc, 'many', 'web', 110, { 'kubernetes.io/hostname': c.nodes[0]! });
    const since = new Date();
    const result = await terminatePods({
      ns: 'many',
      labelSelector: 'app=web',
      all: true,
      secrets: secretsOf(c),
      // Every pod of the namespace, on purpose.
      safety: { maxPodShare: 1 },
    });
    return { result, ...(await requests(c, since)) };
  }

  // The bound holds whatever the machine's load: how many requests a 429 costs is set by the
  // throttle's back-off and growth (about one in seven where it settles), while the load only
  // moves where it settles, that is how fast the action goes. The counts are the apiserver's own
  // (its audit log), and the unthrottled run's are the same on any machine.
  it('terminate_pods over 110 pods finishes, within 1.5 times the requests of an unthrottled run', async () => {
    const result = await unthrottledThenThrottled('terminate_pods 110 pods', terminate);
    expect(result.pods).toHaveLength(110);
  }, 600_000);

  it('drain_nodes finishes, within 1.5 times the requests of an unthrottled run', async () => {
    const drain = async (c: LocalCluster) => {
      const kc = kubeConfigOf(c);
      const node = c.nodes[1]!;
      await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'drained' } } });
      await deployOn(kc, 'drained', 'pinned', 30, { 'kubernetes.io/hostname': node });
      const since = new Date();
      const result = await drainNodes({ name: node, timeout: 120, secrets: secretsOf(c) });
      return { result, ...(await requests(c, since)) };
    };
    const result = await unthrottledThenThrottled('drain_nodes 30 pods', drain);
    expect(result.evicted).toHaveLength(30);
  }, 600_000);
});
