// An abort, wherever it comes (before a call, in a wait, in a request held back by the
// throttle), is one error: Aborted, named AbortError as the DOM's, its cause the signal's reason.
import { readAuditLog } from '@chaoskit/cluster';
import { adminSecrets, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { AppsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeClient } from '../client/kube-client.js';
import { type Aborted, isChaosError } from '../errors/errors.js';
import { Deployments, Pods } from '../transport/resources.js';
import { replicaWaitProbe } from '../workloads/replica-wait.js';

const cluster = sharedCluster();
const secrets = adminSecrets();
const available = replicaWaitProbe(Deployments, 'fully available', {
  name: 'wait_until_available',
  module: 'chaoskit.test.probes',
  doc: 'The replica wait of the deployment probes.',
});
let ns: Awaited<ReturnType<typeof testNamespace>>;
beforeAll(async () => {
  ns = await testNamespace(cluster.kc, 'abort-core');
  // Never available: its pods wait for a node that does not exist.
  await cluster.kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
    namespace: ns.name,
    body: {
      metadata: { name: 'stuck' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'stuck' } },
        template: {
          metadata: { labels: { app: 'stuck' } },
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': 'no-such-node' },
            containers: [{ name: 'app', image: 'example.invalid/app:1' }],
          },
        },
      },
    },
  });
});
afterAll(async () => {
  await ns.remove();
});

function aborted(err: unknown, reason: unknown): Aborted {
  expect(isChaosError(err, 'Aborted'), String(err)).toBe(true);
  expect((err as Error).name).toBe('AbortError');
  expect((err as Error).cause).toBe(reason);
  return err as Aborted;
}

describe('an aborted call', () => {
  it('a replica wait, aborted while it waits: Aborted, not a failed probe', async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted by the test');
    const since = new Date();
    const call = available
      .call({ name: 'stuck', ns: ns.name, timeout: 600 }, { secrets, signal: controller.signal })
      .catch((e: unknown) => e);
    // The abort comes once the wait has listed the deployment (the audit log shows it): it is
    // watching it, or about to.
    await until(
      'the wait under way',
      async () =>
        (await readAuditLog(cluster.auditLogPath, { user: cluster.users.token, since })).some(
          (e) => e.verb === 'list' && e.objectRef?.namespace === ns.name,
        ),
      60_000,
    );
    controller.abort(reason);
    const err = aborted(await call, reason);
    expect(err.activity).toBe('chaoskit.test.probes.wait_until_available');
    expect(err.message).toMatch(/wait_until_available was aborted \(interrupted by the test\)/);
  });

  it('aborted before it starts: nothing reaches the cluster', async () => {
    const reason = new Error('already stopped');
    const since = new Date();
    const err = await available
      .call({ name: 'stuck', ns: ns.name, timeout: 600 }, { secrets, signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    aborted(err, reason);
    // A marker request after it: the audit log has caught up to it, and shows nothing before.
    const marker = await kubeClient(secrets).count(Pods, { namespace: ns.name, labelSelector: 'marker=yes' });
    expect(marker).toBe(0);
    const events = await until('the marker in the audit log', async () => {
      const all = await readAuditLog(cluster.auditLogPath, { user: cluster.users.token, since });
      return all.some((e) => e.requestURI.includes('marker%3Dyes')) ? all : undefined;
    });
    expect(
      events.filter((e) => e.objectRef?.namespace === ns.name && e.objectRef.resource === 'deployments'),
    ).toEqual([]);
  });

  it("a request of core's client: Aborted too, with the reason as its cause", async () => {
    const reason = new Error('no more');
    const kube = kubeClient(secrets, { signal: AbortSignal.abort(reason) });
    aborted(await kube.list(Pods, { namespace: ns.name }).catch((e: unknown) => e), reason);
  });
});
