// The record of changes never lies (issue: "the record of changes must never be a way in, and
// never lie"): a change is found by what it is when a list shifts, runs that change one object
// one over the other are undone to the state before both in either order, nested changes are
// restored parents first, and a damaged or deleted record still leaves every change findable
// and undoable. Each case ends with the cluster compared, whole objects, with its state before.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runOnTerminal } from '../testing/test-cli.js';
import { python } from '../testing/test-experiments.js';
import { printedIdentity } from '../testing/test-identities.js';
import { killedAfter, startRun } from '../testing/test-runs.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const apps = cluster.kc.makeApiClient(AppsV1Api);
const custom = cluster.kc.makeApiClient(CustomObjectsApi);
let dir: string;

const env = () => ({ ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath });
const chaoskit = (args: string[]) => runCli(args, { env: env(), cwd: dir });

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown> };
/** An object as a user compares it: without what the server owns. */
const comparable = (o: unknown) => {
  const { status: _s, ...rest } = o as Obj;
  const { resourceVersion: _r, managedFields: _m, generation: _g, ...metadata } = rest.metadata ?? {};
  return JSON.parse(JSON.stringify({ ...rest, metadata }));
};

const VS = { group: 'networking.istio.io', version: 'v1', plural: 'virtualservices' };
const readVs = async (ns: string) =>
  comparable(await custom.getNamespacedCustomObject({ ...VS, namespace: ns, name: 'reviews' }));
const readNode = async (name: string) => {
  const node = comparable(await core.readNode({ name }));
  // The node controllers' own heartbeat annotations and taints come and go; the TTL controller
  // annotates a new node when it gets to it, before or after the test first reads it.
  const { 'node.alpha.kubernetes.io/ttl': _ttl, ...annotations } = node.metadata.annotations ?? {};
  return {
    spec: { unschedulable: node.spec?.unschedulable },
    annotations,
    labels: node.metadata.labels,
  };
};
const readDeployment = async (ns: string) => {
  const d = comparable(await apps.readNamespacedDeployment({ name: 'web', namespace: ns }));
  return { spec: d.spec, annotations: d.metadata.annotations ?? {} };
};

const mesh = (ns: string, func: string, args: Record<string, unknown>) =>
  python('chaosmesh.fault.actions', func, {
    virtual_service_name: 'reviews',
    ns,
    version: 'networking.istio.io/v1',
    ...args,
  });

/** A method of `actions`, then a long pause in which the run is killed. */
const experiment = (title: string, actions: unknown[], rollbacks: unknown[] = []) => ({
  title,
  description: 'changes, then a pause during which the run is killed',
  method: actions.map((provider, i) => ({
    type: 'action',
    name: `change-${i}`,
    provider,
    ...(i === actions.length - 1 ? { pauses: { after: 120 } } : {}),
  })),
  rollbacks,
});

async function createVs(ns: string, http: unknown[]) {
  await custom.createNamespacedCustomObject({
    ...VS,
    namespace: ns,
    body: {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'reviews' },
      spec: { hosts: ['reviews'], http },
    },
  });
}

async function createNode(name: string) {
  await core.createNode({
    body: {
      metadata: {
        name,
        labels: { type: 'kwok', 'chaoskit.io/record-test': name },
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
      },
      // No other file's pod may land on it: the node is deleted at the end.
      spec: { taints: [{ key: 'chaoskit.io/record-test', value: name, effect: 'NoSchedule' }] },
    },
  });
}

// Marks are found cluster-wide: those of other files' runs (other ledgers, the forgery tests'
// forged ones) cannot be verified with this ledger's key and are not this test's.
const statusJson = async (ns: string) => {
  const listed = await chaoskit(['status', '--ledger-namespace', ns, '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  const status = JSON.parse(listed.stdout) as {
    runs: Array<{
      runId: string;
      left: number;
      byMarks?: boolean;
      objects: Array<{ state: string; detail?: string }>;
    }>;
    not_verified: Array<{ where: string; problem: string }>;
  };
  return { ...status, not_verified: status.not_verified.filter((n) => n.where.includes(ns)) };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-record-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a change is found by what it is', () => {
  it('a route inserted above the faulted one: the revert removes the fault from that route, not another', async () => {
    const ns = await testNamespace(cluster.kc, 'rec-shift');
    try {
      const v2 = { destination: { host: 'reviews', subset: 'v2' } };
      await createVs(ns.name, [
        { match: [{ uri: { prefix: '/v1' } }], route: [{ destination: { host: 'reviews', subset: 'v1' } }] },
        { route: [v2] },
      ]);
      const before = await readVs(ns.name);
      const runId = await killedAfter(
        dir,
        ns.name,
        experiment('abort on v2', [
          mesh(ns.name, 'add_abort_fault', { http_status: 503, percentage: 100, routes: [v2] }),
        ]),
        1,
        { env: env(), args: ['--ledger-namespace', ns.name] },
      );
      // Someone inserts a route at the top: the faulted route moves from index 1 to 2.
      const inserted = {
        match: [{ uri: { prefix: '/new' } }],
        route: [{ destination: { host: 'reviews', subset: 'v3' } }],
      };
      const now = (await custom.getNamespacedCustomObject({
        ...VS,
        namespace: ns.name,
        name: 'reviews',
      })) as Obj & {
        spec: { http: unknown[] };
      };
      now.spec.http.unshift(inserted);
      await custom.replaceNamespacedCustomObject({ ...VS, namespace: ns.name, name: 'reviews', body: now });
      const listed = await statusJson(ns.name);
      expect(listed.runs.map((r) => [r.runId, r.objects.map((o) => o.state)])).toEqual([
        [runId, ['in place']],
      ]);
      const reverted = await chaoskit(['revert', runId, '--ledger-namespace', ns.name]);
      expect(reverted.code, reverted.stderr).toBe(0);
      const expected = structuredClone(before);
      expected.spec.http.unshift(inserted);
      expect(await readVs(ns.name)).toEqual(expected);
    } finally {
      await ns.remove();
    }
  });

  it('a change inside a change (an abort edited, then the fault removed) is restored parents first', async () => {
    const ns = await testNamespace(cluster.kc, 'rec-nested');
    try {
      const v1 = { destination: { host: 'reviews', subset: 'v1' } };
      await createVs(ns.name, [
        { route: [v1], fault: { abort: { httpStatus: 500, percentage: { value: 50 } } } },
      ]);
      const before = await readVs(ns.name);
      const runId = await killedAfter(
        dir,
        ns.name,
        experiment('edit the abort, then remove it', [
          mesh(ns.name, 'add_abort_fault', { http_status: 503, percentage: 100, routes: [v1] }),
          mesh(ns.name, 'remove_abort_fault', { routes: [v1] }),
        ]),
        2,
        { env: env(), args: ['--ledger-namespace', ns.name] },
      );
      expect(await readVs(ns.name)).not.toEqual(before);
      const reverted = await chaoskit(['revert', runId, '--ledger-namespace', ns.name]);
      expect(reverted.code, reverted.stderr).toBe(0);
      expect(await readVs(ns.name)).toEqual(before);
    } finally {
      await ns.remove();
    }
  });
});

describe('runs that change one object one over the other', () => {
  it('two runs cordon a node, one is killed, the other rolls back: nothing is reported left, and reverting both ends as before', async () => {
    const ns = await testNamespace(cluster.kc, 'rec-twocordon');
    const node = ns.name;
    try {
      await createNode(node);
      const before = await readNode(node);
      const cordon = python('chaoscluster.node.actions', 'cordon_node', { name: node });
      const first = await killedAfter(dir, `${ns.name}-a`, experiment('cordon A', [cordon]), 1, {
        env: env(),
        args: ['--ledger-namespace', ns.name],
      });
      const second = await startRun(
        dir,
        `${ns.name}-b`,
        {
          title: 'cordon B',
          description: 'cordons, then uncordons in its rollback',
          method: [{ type: 'action', name: 'cordon', provider: cordon }],
          rollbacks: [
            {
              type: 'action',
              name: 'uncordon',
              provider: python('chaoscluster.node.actions', 'uncordon_node', { name: node }),
            },
          ],
        },
        { env: env(), args: ['--ledger-namespace', ns.name] },
      );
      const { code, stderr } = await second.exited;
      expect(code, stderr).toBe(0);
      expect(stderr).not.toMatch(/still in place/);
      const listed = await statusJson(ns.name);
      expect(listed.runs.map((r) => [r.runId, r.left])).toEqual([[first, 0]]);
      const reverted = await chaoskit(['revert', first, '--ledger-namespace', ns.name]);
      expect(reverted.code, reverted.stderr).toBe(0);
      expect(await readNode(node)).toEqual(before);
      expect((await statusJson(ns.name)).runs).toEqual([]);
    } finally {
      await core.deleteNode({ name: node }).catch(() => undefined);
      await ns.remove();
    }
  });

  it.each([
    ['the first run first', [0, 1]],
    ['the second run first', [1, 0]],
  ])(
    'two killed runs scale one deployment one after the other: reverting %s ends as before both',
    async (_order, order) => {
      const ns = await testNamespace(cluster.kc, 'rec-chain');
      try {
        await deploy(cluster.kc, ns.name, 'web', 1);
        const before = await readDeployment(ns.name);
        const scale = (replicas: number) =>
          python('chaoscluster.deployment.actions', 'scale_deployment', {
            name: 'web',
            ns: ns.name,
            replicas,
          });
        const runs = [
          await killedAfter(dir, `${ns.name}-a`, experiment('scale to 3', [scale(3)]), 1, {
            env: env(),
            args: ['--ledger-namespace', ns.name],
          }),
          await killedAfter(dir, `${ns.name}-b`, experiment('scale to 5', [scale(5)]), 1, {
            env: env(),
            args: ['--ledger-namespace', ns.name],
          }),
        ];
        expect((await readDeployment(ns.name)).spec.replicas).toBe(5);
        for (const i of order) {
          const reverted = await chaoskit(['revert', runs[i]!, '--ledger-namespace', ns.name]);
          expect(reverted.code, reverted.stderr).toBe(0);
        }
        expect(await readDeployment(ns.name)).toEqual(before);
        expect((await statusJson(ns.name)).runs).toEqual([]);
      } finally {
        await ns.remove();
      }
    },
  );
});

describe('runs recording in two ledger namespaces, on one object', () => {
  it("two overlapping runs scale one deployment: neither reports, nor restores, the other run's value", async () => {
    // The local run records beside web, as an identity holding what chaoskit rbac prints: it
    // may not read the key of the other ledger namespace, nor verify the other run's undo.
    const ns = await testNamespace(cluster.kc, 'rec-overlap');
    const ledgers = [ns, await testNamespace(cluster.kc, 'rec-overlap-b')];
    try {
      await deploy(cluster.kc, ns.name, 'web', 3);
      const before = await readDeployment(ns.name);
      const scale = (replicas: number) =>
        python('chaoscluster.deployment.actions', 'scale_deployment', { name: 'web', ns: ns.name, replicas });
      const hold = (title: string, replicas: number, rollback?: number) => ({
        title,
        description: 'holds its change until stopped',
        method: [{ type: 'action', name: 'scale', provider: scale(replicas), pauses: { after: 300 } }],
        ...(rollback ? { rollbacks: [{ type: 'action', name: 'back', provider: scale(rollback) }] } : {}),
      });
      // A CronJob's run, say, scales web to 2 and holds it; a local run scales it to 1 on top.
      const scheduled = await startRun(dir, `${ns.name}-scheduled`, hold('to 2, back to 3', 2, 3), {
        env: env(),
        args: ['--ledger-namespace', ledgers[1]!.name],
      });
      await scheduled.methodDone(1);
      const printed = await chaoskit([
        'rbac',
        'chaoscluster.deployment.actions.scale_deployment',
        '--name',
        'local',
      ]);
      const person = await printedIdentity(cluster, ns.name, 'local', printed.stdout);
      const local = await startRun(dir, `${ns.name}-local`, hold('to 1', 1), {
        env: person.env,
        args: ['--ledger-namespace', ledgers[0]!.name],
      });
      const localRun = await local.methodDone(1);
      expect((await readDeployment(ns.name)).spec.replicas).toBe(1);
      // The scheduled run stops first and rolls back: web is at its true 3.
      scheduled.child.kill('SIGTERM');
      expect((await scheduled.exited).code).toBe(143);
      expect((await readDeployment(ns.name)).spec.replicas).toBe(3);
      // The local run stops: web is as before both runs; nothing of it is left in place (its
      // "before" was the other run's 2, not web's own).
      local.child.kill('SIGTERM');
      const ended = await local.exited;
      expect(ended.code, ended.stderr).toBe(143);
      expect(ended.stderr).not.toMatch(/still in place/);
      const listed = await statusJson(ledgers[0]!.name);
      expect(listed.runs.filter((r) => r.left > 0)).toEqual([]);
      // And a revert of it, were one asked for, leaves web as it is.
      await chaoskit(['revert', localRun, '--ledger-namespace', ledgers[0]!.name, '--force']);
      expect((await readDeployment(ns.name)).spec).toEqual(before.spec);
    } finally {
      for (const n of ledgers) await n.remove();
    }
  });
});

describe('a damaged or missing record', () => {
  async function twoChanges(name: string) {
    const ns = await testNamespace(cluster.kc, name);
    const node = ns.name;
    await createNode(node);
    await deploy(cluster.kc, ns.name, 'web', 1);
    const before = { node: await readNode(node), deployment: await readDeployment(ns.name) };
    const runId = await killedAfter(
      dir,
      ns.name,
      experiment('cordon and scale', [
        python('chaoscluster.node.actions', 'cordon_node', { name: node }),
        python('chaoscluster.deployment.actions', 'scale_deployment', {
          name: 'web',
          ns: ns.name,
          replicas: 3,
        }),
      ]),
      2,
      { env: env(), args: ['--ledger-namespace', ns.name] },
    );
    const state = async () => ({ node: await readNode(node), deployment: await readDeployment(ns.name) });
    const record = async () =>
      (await core.readNamespacedConfigMap({ name: `chaoskit-run-${runId}`, namespace: ns.name })) as {
        data: Record<string, string>;
      };
    /** Edits the record by hand, as `kubectl edit` would. */
    const edit = async (data: Record<string, string>) => {
      const map = await core.readNamespacedConfigMap({ name: `chaoskit-run-${runId}`, namespace: ns.name });
      map.data = { ...map.data, ...data };
      await core.replaceNamespacedConfigMap({ name: `chaoskit-run-${runId}`, namespace: ns.name, body: map });
    };
    const cleanup = async () => {
      await core.deleteNode({ name: node }).catch(() => undefined);
      await ns.remove();
    };
    return { ns, runId, before, state, record, edit, cleanup };
  }

  it('an entry cut short is named (ConfigMap and key) and skipped; its change is found by its mark and undone', async () => {
    const t = await twoChanges('rec-corrupt');
    try {
      const data = (await t.record()).data;
      const nodeKey = Object.keys(data).find(
        (k) => k.startsWith('o-') && !k.endsWith('.mac') && data[k]!.includes('"nodes"'),
      )!;
      await t.edit({ [nodeKey]: data[nodeKey]!.slice(0, 40) });
      const listed = await statusJson(t.ns.name);
      expect(listed.not_verified).toEqual([
        expect.objectContaining({ where: `ConfigMap ${t.ns.name}/chaoskit-run-${t.runId}, key ${nodeKey}` }),
      ]);
      expect(listed.runs[0]!.objects.map((o) => o.state)).toEqual(['in place', 'in place']);
      expect(listed.runs[0]!.objects[1]!.detail).toMatch(/found by its mark/);
      const reverted = await chaoskit(['revert', t.runId, '--ledger-namespace', t.ns.name]);
      expect(reverted.stdout).toMatch(/2 undone/);
      expect(await t.state()).toEqual(t.before);
    } finally {
      await t.cleanup();
    }
  });

  it('a deleted record: status finds the changes by their marks, revert undoes them', async () => {
    const t = await twoChanges('rec-deleted');
    try {
      await core.deleteNamespacedConfigMap({ name: `chaoskit-run-${t.runId}`, namespace: t.ns.name });
      const listed = await statusJson(t.ns.name);
      expect(listed.runs).toEqual([expect.objectContaining({ runId: t.runId, byMarks: true, left: 2 })]);
      const reverted = await chaoskit(['revert', t.runId, '--ledger-namespace', t.ns.name]);
      expect(reverted.code, reverted.stderr).toBe(0);
      expect(await t.state()).toEqual(t.before);
      expect((await statusJson(t.ns.name)).runs).toEqual([]);
    } finally {
      await t.cleanup();
    }
  });

  it('a record whose header is damaged is named and nothing in it is trusted: its changes are found by their marks', async () => {
    const t = await twoChanges('rec-header');
    try {
      await t.edit({ run: '{"v":2,' });
      const listed = await statusJson(t.ns.name);
      expect(listed.not_verified[0]).toEqual(
        expect.objectContaining({
          where: `ConfigMap ${t.ns.name}/chaoskit-run-${t.runId}`,
          problem: expect.stringMatching(/header/),
        }),
      );
      // Its changes are still found by their marks, and undone.
      expect(listed.runs).toEqual([expect.objectContaining({ runId: t.runId, byMarks: true, left: 2 })]);
      const reverted = await chaoskit(['revert', t.runId, '--ledger-namespace', t.ns.name]);
      expect(await t.state()).toEqual(t.before);
      // The damaged record stays until dismissed: nothing in it was trusted.
      expect(reverted.code).toBe(1);
      const dismissed = await chaoskit([
        'revert',
        t.runId,
        '--dismiss',
        '--yes',
        '--ledger-namespace',
        t.ns.name,
      ]);
      expect(dismissed.code, dismissed.stderr).toBe(0);
      expect(await statusJson(t.ns.name)).toEqual({ runs: [], not_verified: [] });
    } finally {
      await t.cleanup();
    }
  });
});

describe('revert --expired', () => {
  it('lists what it would undo and asks on a terminal; elsewhere it needs --yes', async () => {
    const ns = await testNamespace(cluster.kc, 'rec-expired');
    try {
      await deploy(cluster.kc, ns.name, 'web', 1);
      const before = await readDeployment(ns.name);
      const runId = await killedAfter(
        dir,
        ns.name,
        experiment('scale', [
          python('chaoscluster.deployment.actions', 'scale_deployment', {
            name: 'web',
            ns: ns.name,
            replicas: 2,
          }),
        ]),
        1,
        { env: env(), args: ['--ledger-namespace', ns.name, '--ledger-ttl', '1s'] },
      );
      await until('the run expired', async () =>
        (await statusJson(ns.name)).runs.some(
          (r) => r.runId === runId && (r as { expired?: boolean }).expired,
        ),
      );
      const args = ['revert', '--expired', '--ledger-namespace', ns.name];
      const piped = await chaoskit(args);
      expect(piped.code).toBe(1);
      expect(piped.stderr).toMatch(/not on a terminal, so nothing was done; add --yes/);
      const no = await runOnTerminal(args, 'n', { env: env(), cwd: dir });
      expect(no.stdout).toContain(
        `${runId}: deployment 'web' in namespace '${ns.name}': changed /spec/replicas (in place)`,
      );
      expect(no.code).toBe(1);
      expect((await readDeployment(ns.name)).spec.replicas).toBe(2);
      const yes = await runOnTerminal(args, 'y', { env: env(), cwd: dir });
      expect(yes.code, yes.stdout).toBe(0);
      expect(await readDeployment(ns.name)).toEqual(before);
    } finally {
      await ns.remove();
    }
  });
});
