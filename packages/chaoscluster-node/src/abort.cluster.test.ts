// drain_nodes aborted while a disruption budget holds some of its pods: one error (Aborted, its
// cause the signal's reason) saying which pods were evicted and which were not, and that the
// node stays cordoned (D105) — which the cluster confirms.
//
// On a kwok node of its own, tainted so that only this file's pods land there: the shared
// cluster's nodes serve other files at the same time.
import {
  adminSecrets,
  apisOf,
  deploy,
  fileNamespace,
  ownKwokNode,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { type Aborted, isChaosError } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { drainNodes } from './drain-nodes.js';

const cluster = sharedCluster();
const { core, policy } = apisOf(cluster.kc);
const NODE = `abort-drain-${process.pid}`;
const secrets = adminSecrets();
const own = ownKwokNode(cluster.kc, NODE, 'chaoskit.io/abort-drain');
const ns = fileNamespace(cluster.kc, 'abort-drain');

const onNode = { nodeSelector: { 'kubernetes.io/hostname': NODE }, tolerations: [own.toleration] };
const key = (p: V1Pod) => `${p.metadata!.namespace}/${p.metadata!.name}`;
const podsOf = async (app: string) =>
  (await core.listNamespacedPod({ namespace: ns.name, labelSelector: `app=${app}` })).items;

describe('drain_nodes, aborted while a disruption budget holds pods of the node', () => {
  it('says what it evicted and what it did not, and that the node stays cordoned', async () => {
    await deploy(cluster.kc, ns.name, 'free', 3, { podSpec: onNode });
    await deploy(cluster.kc, ns.name, 'held', 2, { podSpec: onNode });
    // No disruption at all: these two are never evicted while the budget stands.
    await policy.createNamespacedPodDisruptionBudget({
      namespace: ns.name,
      body: {
        metadata: { name: 'held' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'held' } } },
      },
    });
    const free = (await podsOf('free')).map(key).sort();
    const held = (await podsOf('held')).map(key).sort();

    const controller = new AbortController();
    const reason = new Error('interrupted by the test');
    const call = drainNodes({ name: NODE, timeout: 600, secrets, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    // The abort comes while the drain retries what the budget refuses: every free pod is on its way.
    await until(
      'the free pods evicted',
      async () =>
        (await podsOf('free')).every((p) => !free.includes(key(p)) || p.metadata?.deletionTimestamp),
      60_000,
    );
    controller.abort(reason);
    const err = (await call) as Aborted;
    expect(isChaosError(err, 'Aborted'), String(err)).toBe(true);
    expect(err.cause).toBe(reason);
    expect(err.progress.cordoned).toEqual([NODE]);
    expect([...(err.progress.evicted ?? [])].sort()).toEqual(free);
    expect([...(err.progress['not evicted'] ?? [])].sort()).toEqual(held);
    expect(err.note).toMatch(new RegExp(`${NODE} stay cordoned; uncordon_node undoes it`));
    // The cluster agrees: the node is cordoned, the held pods run on it.
    expect((await core.readNode({ name: NODE })).spec?.unschedulable).toBe(true);
    const now = await podsOf('held');
    expect(
      now
        .filter((p) => !p.metadata?.deletionTimestamp)
        .map(key)
        .sort(),
    ).toEqual(held);
  }, 180_000);
});
