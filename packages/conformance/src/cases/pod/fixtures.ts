// Fixtures shared by the pod cases: pods that stay Pending, pods with several containers, pods
// in a given phase.
import assert from 'node:assert/strict';
import { isChaosError } from '@chaoskit/core';
import { PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { NO_SUCH_NODE } from '../../workload-doc.js';
import { activityFailure } from '../shared-fixtures.js';

/**
 * A pod that stays Pending: `unschedulable` asks for a node label no node has (the scheduler
 * sets PodScheduled=False); `unscheduled` names a scheduler that does not exist, so nothing
 * ever touches the pod and its status has no conditions at all.
 */
export async function createPendingPod(
  t: CaseContext,
  name: string,
  labels: Record<string, string>,
  how: 'unschedulable' | 'unscheduled' = 'unschedulable',
): Promise<void> {
  await t.core.createNamespacedPod({
    namespace: t.ns,
    body: {
      metadata: { name, labels },
      spec: {
        containers: [{ name: 'main', image: 'example.invalid/main:1' }],
        ...(how === 'unschedulable'
          ? { nodeSelector: NO_SUCH_NODE }
          : { schedulerName: 'chaoskit-no-such-scheduler' }),
      },
    },
  });
  if (how === 'unschedulable')
    await t.until(`${name} marked unschedulable`, async () => {
      const pod = await t.core.readNamespacedPod({ name, namespace: t.ns });
      return pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False');
    });
}

/** One Running pod with the given containers and annotations. */
export async function createPod(
  t: CaseContext,
  name: string,
  options: { labels?: Record<string, string>; annotations?: Record<string, string>; containers: string[] },
): Promise<V1Pod> {
  await t.core.createNamespacedPod({
    namespace: t.ns,
    body: {
      metadata: { name, labels: options.labels ?? {}, annotations: options.annotations ?? {} },
      spec: {
        terminationGracePeriodSeconds: 1,
        containers: options.containers.map((c) => ({ name: c, image: `example.invalid/${c}:1` })),
      },
    },
  });
  return t.until(`${name} Running`, async () => {
    const pod = await t.core.readNamespacedPod({ name, namespace: t.ns });
    return pod.status?.phase === 'Running' ? pod : undefined;
  });
}

/** Calls the activity, expecting ActivityFailed; returns its message. */
export async function expectFailure(t: CaseContext, args: Record<string, unknown>): Promise<string> {
  const err = await t.call(args).then(
    (value) => assert.fail(`expected ActivityFailed, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  assert.ok(isChaosError(err, 'ActivityFailed'), `expected ActivityFailed, got ${String(err)}`);
  return (err as Error).message;
}

/**
 * A pod in the given phase. Pending: no node can take it. Failed or Succeeded: nothing schedules
 * it (a scheduler that does not exist) and its status is set as a kubelet would have set it.
 */
export async function podInPhase(
  t: CaseContext,
  name: string,
  phase: 'Pending' | 'Failed' | 'Succeeded',
  labels: Record<string, string> = {},
): Promise<void> {
  await createPendingPod(t, name, labels, 'unscheduled');
  if (phase === 'Pending') return;
  await t.core.patchNamespacedPodStatus(
    { name, namespace: t.ns, body: { status: { phase } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  await t.until(`${name} ${phase}`, async () => {
    const pod = await t.core.readNamespacedPod({ name, namespace: t.ns });
    return pod.status?.phase === phase;
  });
}

/**
 * all_pods_healthy and all_microservices_healthy (its deprecated name) where every pod is Running
 * or Succeeded (a deployment and a finished pod): `holds` checks that the probe holds there.
 */
export function everyPodHealthyScenario(also: string, holds: (t: CaseContext) => Promise<void>): Scenario {
  return {
    name: `holds when every pod is Running or Succeeded (a deployment and a finished pod)${also}`,
    async run(t) {
      await t.deploy('web', 2);
      await podInPhase(t, 'job-done', 'Succeeded');
      await holds(t);
    },
  };
}

/**
 * What all_pods_healthy and all_microservices_healthy (its deprecated name) share: an empty
 * namespace is healthy; Failed pods, then the others neither Running nor Succeeded, are named;
 * bad arguments are refused.
 */
export const healthScenarios: Scenario[] = [
  {
    name: 'holds in a namespace without pods',
    async run(t) {
      assert.equal(await t.call({ ns: t.ns }), true);
    },
  },
  {
    name: 'fails naming the Failed pods, then those neither Running nor Succeeded (D50)',
    async run(t) {
      await t.deploy('web', 1);
      await podInPhase(t, 'queued', 'Pending');
      await podInPhase(t, 'crashed', 'Failed');
      const message = await activityFailure(t.call({ ns: t.ns }));
      assert.match(
        message,
        /^the system is unhealthy: pod crashed is Failed; pod queued is Pending, not Running or Succeeded \(2 of 3 pods/,
      );
    },
  },
  {
    name: 'a bad namespace and unknown arguments are refused before any request',
    async run(t) {
      await t.expectRefused({ ns: 'Not_A_Namespace' }, 'ns');
      await t.expectRefused({ ns: t.ns, name: 'web' }, 'name');
    },
  },
];
