import { describe, expect, it } from 'vitest';
import { Deployments, StatefulSets } from '../transport/resources.js';
import {
  type Replicated,
  replicasHold,
  replicaTimeoutMessage,
  replicaWaitArgs,
  replicaWaitRbac,
} from './replica-wait.js';

const o = (replicas: number | undefined, ready: number | undefined): Replicated => ({
  metadata: { name: 'web' },
  spec: replicas === undefined ? {} : { replicas },
  status: ready === undefined ? {} : { readyReplicas: ready },
});

describe('the replica waits', () => {
  it('compare readyReplicas (absent: 0) with spec.replicas (absent: 1)', () => {
    expect(replicasHold('fully available', o(3, 3))).toBe(true);
    expect(replicasHold('fully available', o(3, 1))).toBe(false);
    expect(replicasHold('fully available', o(0, undefined))).toBe(true);
    expect(replicasHold('fully available', o(undefined, 1))).toBe(true);
    expect(replicasHold('not fully available', o(3, undefined))).toBe(true);
    expect(replicasHold('not fully available', o(2, 2))).toBe(false);
    expect(replicasHold('fully available', undefined)).toBe(false);
    expect(replicasHold('not fully available', undefined)).toBe(false);
  });

  it('say which object and which condition failed', () => {
    const args = { name: 'web', ns: 'shop', label_selector: null, timeout: 30 };
    expect(replicaTimeoutMessage(Deployments, 'fully available', args, null, o(3, 1))).toBe(
      "deployment 'web' failed to recover within 30s: 1 of 3 replicas ready",
    );
    expect(replicaTimeoutMessage(Deployments, 'not fully available', args, null, o(1, 1))).toBe(
      "deployment 'web' failed to stop running within 30s: 1 of 1 replica ready, it stayed fully available",
    );
    expect(replicaTimeoutMessage(StatefulSets, 'fully available', args, 'app=web', undefined)).toBe(
      "stateful set 'web' failed to recover within 30s: it was not found in namespace 'shop' matching label selector 'app=web'",
    );
  });

  it('take the arguments of 0.25.1 and need list and watch on the kind', () => {
    const args = replicaWaitArgs(StatefulSets, 'fully available');
    expect(Object.keys(args)).toEqual(['name', 'ns', 'label_selector', 'timeout']);
    expect(args.timeout.parse(undefined)).toBe(30);
    expect(args.label_selector.parse(undefined)).toBe(null);
    expect(args.name.safeParse('Web_1').success).toBe(false);
    expect(replicaWaitRbac(StatefulSets)).toEqual([
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['list', 'watch'] },
    ]);
  });
});
