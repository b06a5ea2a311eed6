// An aborted call of this package's activities: it stops at once, raises one error (Aborted, its
// cause the signal's reason) and says exactly what became of each pod, as the cluster shows it.
import {
  adminSecrets,
  apisOf,
  deploy,
  fileNamespace,
  processesWith,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { type Aborted, isChaosError } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { execInPods } from './exec-in-pods.js';
import { terminatePods } from './terminate-pods.js';

const cluster = sharedCluster();
const { core } = apisOf(cluster.kc);
const secrets = adminSecrets();
const ns = fileNamespace(cluster.kc, 'abort-pod');

const podsOf = async (app: string): Promise<V1Pod[]> =>
  (await core.listNamespacedPod({ namespace: ns.name, labelSelector: `app=${app}` })).items;

function aborted(err: unknown): Aborted {
  expect(isChaosError(err, 'Aborted'), String(err)).toBe(true);
  expect((err as Error).name).toBe('AbortError');
  return err as Aborted;
}

describe('exec_in_pods, aborted while its command runs', () => {
  it('returns at once with Aborted (the command still running), naming the pods it was cut off in', async () => {
    await deploy(cluster.kc, ns.name, 'exec', 2);
    const marker = `chaoskit-abort-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const reason = new Error('stop, says the test');
    const call = execInPods({
      ns: ns.name,
      labelSelector: 'app=exec',
      all: true,
      // kwok runs the command as a process of this machine: the marker finds it.
      cmd: ['sh', '-c', `sleep 600 # ${marker}`],
      requestTimeout: 900,
      secrets,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    try {
      await until('the command running in both pods', async () => processesWith(marker).length === 2, 60_000);
      controller.abort(reason);
      const err = aborted(await call);
      // Returned while the commands still run: it did not wait for them to finish.
      expect(processesWith(marker)).toHaveLength(2);
      expect(err.cause).toBe(reason);
      const names = (await podsOf('exec')).map((p) => p.metadata!.name!).sort();
      expect([...(err.progress['cut off in'] ?? [])].sort()).toEqual(names);
      expect(err.message).toMatch(/stop, says the test/);
      expect(err.note).toMatch(/may go on in its container/);
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid);
    }
  });

  it('an abort before the call sends nothing and runs nothing: Aborted, its cause the reason', async () => {
    const marker = `chaoskit-abort-early-${process.pid}-${Date.now()}`;
    const reason = new Error('already stopped');
    const err = aborted(
      await execInPods({
        ns: ns.name,
        labelSelector: 'app=exec',
        cmd: ['sh', '-c', `echo ${marker}`],
        secrets,
        signal: AbortSignal.abort(reason),
      }).catch((e: unknown) => e),
    );
    expect(err.cause).toBe(reason);
    expect(processesWith(marker)).toEqual([]);
  });
});

describe('terminate_pods, aborted part-way through', () => {
  it('reports each pod as the cluster shows it: terminated (deleted or terminating) or not', async () => {
    const total = 120;
    await deploy(cluster.kc, ns.name, 'many', total, { timeoutMs: 180_000 });
    const targets = new Map((await podsOf('many')).map((p) => [p.metadata!.name!, p.metadata!.uid!]));
    expect(targets.size).toBe(total);
    const controller = new AbortController();
    const reason = new Error('interrupted by the test');
    const call = terminatePods({
      ns: ns.name,
      labelSelector: 'app=many',
      all: true,
      safety: { maxPodShare: 1 },
      secrets,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    // The abort comes once the first pod is terminating: the call is under way.
    const terminating = (p: V1Pod) =>
      targets.has(p.metadata!.name!) && Boolean(p.metadata?.deletionTimestamp);
    await until('a first pod terminating', async () => (await podsOf('many')).some(terminating), 60_000, 10);
    controller.abort(reason);
    const err = aborted(await call);
    expect(err.cause).toBe(reason);

    const terminated = err.progress.terminated ?? [];
    const notTerminated = err.progress['not terminated'] ?? [];
    console.log(
      `terminate_pods aborted: ${terminated.length} terminated, ${notTerminated.length} not, ${(err.progress.interrupted ?? []).length} unknown`,
    );
    // Every pod is accounted for exactly once, and none is left unknown: the look after the
    // abort settled the deletions that were under way.
    expect(err.progress.interrupted ?? []).toEqual([]);
    expect([...terminated, ...notTerminated].sort()).toEqual([...targets.keys()].sort());
    expect(terminated.length).toBeGreaterThan(0);
    // What the cluster shows agrees: each terminated pod is gone or terminating, each other one
    // is there as it was.
    const now = new Map((await podsOf('many')).map((p) => [p.metadata!.name!, p]));
    for (const name of terminated) {
      const pod = now.get(name);
      expect(pod === undefined || Boolean(pod.metadata?.deletionTimestamp), name).toBe(true);
    }
    for (const name of notTerminated) {
      const pod = now.get(name);
      expect(pod?.metadata?.uid, name).toBe(targets.get(name));
      expect(pod?.metadata?.deletionTimestamp, name).toBeUndefined();
    }
  }, 300_000);
});
