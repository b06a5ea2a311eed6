import type { V1OwnerReference, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { blockingBudget, classifyPod, MIRROR_ANNOTATION, planNode } from './drain-plan.js';

const owner = (kind: string, controller = true): V1OwnerReference => ({
  apiVersion: 'apps/v1',
  kind,
  name: `${kind.toLowerCase()}-1`,
  uid: `uid-${kind}`,
  controller,
});

interface PodShape {
  name?: string;
  owners?: V1OwnerReference[] | null;
  annotations?: Record<string, string>;
  volumes?: V1Pod['spec'] extends infer S ? (S extends { volumes?: infer V } ? V : never) : never;
  phase?: string;
  terminating?: boolean;
}

function pod(shape: PodShape = {}): V1Pod {
  const p: V1Pod = {
    metadata: {
      name: shape.name ?? 'p',
      namespace: 'ns',
      ...(shape.annotations ? { annotations: shape.annotations } : {}),
      ...(shape.owners === null ? {} : { ownerReferences: shape.owners ?? [owner('ReplicaSet')] }),
      ...(shape.terminating ? { deletionTimestamp: new Date() } : {}),
    },
    spec: {
      containers: [{ name: 'c' }],
      ...(shape.volumes ? { volumes: shape.volumes } : {}),
    },
    status: { phase: shape.phase ?? 'Running' },
  };
  return p;
}

const emptyDir = [{ name: 'scratch', emptyDir: {} }];
const configMap = [{ name: 'cfg', configMap: { name: 'cfg' } }];
const off = { deletePodsWithLocalStorage: false };
const on = { deletePodsWithLocalStorage: true };

describe('classifyPod', () => {
  it.each<[string, PodShape, typeof off, ReturnType<typeof classifyPod>]>([
    ['a ReplicaSet pod is evicted', {}, off, { action: 'evict', reason: 'managed' }],
    [
      'a StatefulSet pod is evicted',
      { owners: [owner('StatefulSet')] },
      off,
      { action: 'evict', reason: 'managed' },
    ],
    [
      'a mirror pod is skipped',
      { annotations: { [MIRROR_ANNOTATION]: 'abc' }, owners: null },
      off,
      { action: 'skip', reason: 'mirror' },
    ],
    [
      'a mirror pod is skipped even with the flag and emptyDir',
      { annotations: { [MIRROR_ANNOTATION]: '' }, volumes: emptyDir },
      on,
      { action: 'skip', reason: 'mirror' },
    ],
    [
      'a DaemonSet pod is skipped',
      { owners: [owner('DaemonSet')] },
      off,
      { action: 'skip', reason: 'daemonset' },
    ],
    [
      'a DaemonSet pod with emptyDir is skipped even with the flag',
      { owners: [owner('DaemonSet')], volumes: emptyDir },
      on,
      { action: 'skip', reason: 'daemonset' },
    ],
    [
      'a non-controller DaemonSet reference alone still marks a DaemonSet pod',
      { owners: [owner('DaemonSet', false)] },
      off,
      { action: 'skip', reason: 'daemonset' },
    ],
    [
      'a ReplicaSet controller wins over a non-controller DaemonSet reference',
      { owners: [owner('DaemonSet', false), owner('ReplicaSet')] },
      off,
      { action: 'evict', reason: 'managed' },
    ],
    [
      'emptyDir without the flag is left in place',
      { volumes: emptyDir },
      off,
      { action: 'skip', reason: 'local-storage' },
    ],
    [
      'emptyDir with the flag is evicted',
      { volumes: emptyDir },
      on,
      { action: 'evict', reason: 'local-storage' },
    ],
    [
      'other volumes are no local storage',
      { volumes: configMap },
      off,
      { action: 'evict', reason: 'managed' },
    ],
    [
      'a Succeeded pod is evicted',
      { phase: 'Succeeded', owners: null },
      off,
      { action: 'evict', reason: 'terminal' },
    ],
    [
      'a Failed pod is evicted',
      { phase: 'Failed', owners: [] },
      off,
      { action: 'evict', reason: 'terminal' },
    ],
    [
      'a Succeeded pod with emptyDir is left without the flag',
      { phase: 'Succeeded', volumes: emptyDir },
      off,
      { action: 'skip', reason: 'local-storage' },
    ],
    ['an unmanaged pod refuses the drain', { owners: [] }, off, { action: 'refuse', reason: 'unmanaged' }],
    [
      'absent ownerReferences count as none (D15)',
      { owners: null },
      off,
      { action: 'refuse', reason: 'unmanaged' },
    ],
    [
      'only non-controller owners is unmanaged',
      { owners: [owner('ConfigMap', false)] },
      off,
      { action: 'refuse', reason: 'unmanaged' },
    ],
    [
      'an unmanaged pod with emptyDir refuses the drain with the flag',
      { owners: [], volumes: emptyDir },
      on,
      { action: 'refuse', reason: 'unmanaged' },
    ],
    [
      'an unmanaged pod with emptyDir is left in place without the flag',
      { owners: [], volumes: emptyDir },
      off,
      { action: 'skip', reason: 'local-storage' },
    ],
    [
      'a terminating pod is waited for, not evicted',
      { terminating: true },
      off,
      { action: 'wait', reason: 'terminating' },
    ],
    [
      'a terminating unmanaged pod is waited for',
      { terminating: true, owners: null },
      off,
      { action: 'wait', reason: 'terminating' },
    ],
  ])('%s', (_label, shape, options, expected) => {
    expect(classifyPod(pod(shape), options)).toEqual(expected);
  });

  it('absent volumes count as none (D15)', () => {
    const p = pod();
    delete p.spec!.volumes;
    expect(classifyPod(p, on)).toEqual({ action: 'evict', reason: 'managed' });
  });

  it('a pod without metadata, spec or status is unmanaged, not a crash', () => {
    expect(classifyPod({}, off)).toEqual({ action: 'refuse', reason: 'unmanaged' });
  });
});

describe('planNode', () => {
  it('sorts the pods of a node by verdict', () => {
    const pods = [
      pod({ name: 'web' }),
      pod({ name: 'ds', owners: [owner('DaemonSet')] }),
      pod({ name: 'bare', owners: [] }),
      pod({ name: 'scratch', volumes: emptyDir }),
      pod({ name: 'going', terminating: true }),
      pod({ name: 'done', phase: 'Succeeded', owners: [] }),
    ];
    const plan = planNode('n1', pods, off);
    const names = (list: V1Pod[]) => list.map((p) => p.metadata?.name);
    expect(plan.node).toBe('n1');
    expect(names(plan.evict)).toEqual(['web', 'done']);
    expect(names(plan.wait)).toEqual(['going']);
    expect(names(plan.refused)).toEqual(['bare']);
    expect(plan.skipped.map((s) => [s.pod.metadata?.name, s.reason])).toEqual([
      ['ds', 'daemonset'],
      ['scratch', 'local-storage'],
    ]);
  });
});

describe('blockingBudget', () => {
  it('reads the budget from the DisruptionBudget cause', () => {
    expect(
      blockingBudget({
        kind: 'Status',
        status: 'Failure',
        message: "Cannot evict pod as it would violate the pod's disruption budget.",
        reason: 'TooManyRequests',
        details: {
          causes: [
            {
              reason: 'DisruptionBudget',
              message: 'The disruption budget web-pdb needs 10 healthy pods and has 10 currently',
            },
          ],
        },
        code: 429,
      }),
    ).toBe('web-pdb');
  });

  it('reads it from the message while the budget is being processed', () => {
    expect(
      blockingBudget({
        message:
          "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget db.pdb is still being processed by the server.",
      }),
    ).toBe('db.pdb');
  });

  it('names none for a refusal without a budget (rate limiting) or no Status', () => {
    expect(blockingBudget({ message: 'Too many requests, please try again later.' })).toBeUndefined();
    expect(
      blockingBudget({ message: "Cannot evict pod as it would violate the pod's disruption budget." }),
    ).toBeUndefined();
    expect(blockingBudget(undefined)).toBeUndefined();
    expect(blockingBudget('429')).toBeUndefined();
  });
});
