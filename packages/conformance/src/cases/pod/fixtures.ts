// Fixtures shared by the pod cases: pods that stay Pending, pods with several containers, pods
// in a given phase.
import assert from 'node:assert/strict';
import { isChaosError } from '@chaoskit/core';
import { PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import type { CaseContext } from '../../case-context.js';

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
          ? { nodeSelector: { 'chaoskit.io/no-such-node': 'true' } }
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
  await t.core.createNamespacedPod({
    namespace: t.ns,
    body: {
      metadata: { name, labels },
      spec: {
        schedulerName: 'chaoskit-no-such-scheduler',
        containers: [{ name: 'main', image: 'example.invalid/main:1' }],
      },
    },
  });
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
