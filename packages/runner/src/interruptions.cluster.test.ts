// A fault never outlives its run: for each family of mutating activity, a run interrupted in
// the middle of its method (SIGINT, SIGTERM) plays its rollbacks and writes its journal, and a
// run killed outright (SIGKILL) leaves a record that `chaoskit status` lists and `chaoskit
// revert` undoes. Each time the cluster is compared with its state before the run: the whole
// objects the activity changed, server-owned fields aside.

import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apisOf,
  createVirtualService,
  deploy,
  installCrd,
  sharedCluster,
  testNamespace,
  until,
} from '@chaoskit/cluster/testing';
import { NetworkingV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './testing/test-cli.js';
import { python } from './testing/test-experiments.js';

const cluster = sharedCluster();
const { core, apps, custom } = apisOf(cluster.kc);
const CRD_GROUP = 'interrupt3.chaoskit.io';
let dir: string;

const env = () => ({ ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath });

const chaoskit = (args: string[]) => runCli(args, { env: env(), cwd: dir });

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown> };
// What the activity may change of an object: everything but what the server owns.
const comparable = (o: Obj | undefined) => {
  if (!o) return o;
  const { status: _s, ...rest } = o;
  const { resourceVersion: _r, managedFields: _m, generation: _g, ...metadata } = o.metadata ?? {};
  return JSON.parse(JSON.stringify({ ...rest, metadata }));
};

interface Family {
  name: string;
  /** Creates what the experiment acts on; returns the experiment's method action and rollback. */
  setup(ns: string): Promise<{ action: ReturnType<typeof python>; rollback: ReturnType<typeof python> }>;
  /** The objects the action changes, comparable. */
  state(ns: string): Promise<unknown>;
}

const deploymentState = async (ns: string, name: string) =>
  comparable((await apps.readNamespacedDeployment({ name, namespace: ns })) as unknown as Obj);

const families: Family[] = [
  {
    name: 'pod termination',
    async setup(ns) {
      await deploy(cluster.kc, ns, 'web', 2);
      return {
        action: python('chaoscluster.pod.actions', 'terminate_pods', {
          ns,
          label_selector: 'app=web',
          qty: 1,
        }),
        rollback: python('chaoscluster.deployment.probes', 'deployment_fully_available', {
          name: 'web',
          ns,
          timeout: 30,
        }),
      };
    },
    // Deleted pods are not reverted: their controller replaces them. The deployment is what
    // must be as it was, with all its replicas available again.
    async state(ns) {
      await until('2 replicas available', async () => {
        const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
        return d.status?.availableReplicas === 2;
      });
      return deploymentState(ns, 'web');
    },
  },
  {
    name: 'drain and cordon',
    async setup(ns) {
      await core.createNode({
        body: {
          metadata: {
            name: ns,
            labels: { 'chaoskit.io/interrupt': ns, 'kubernetes.io/hostname': ns, type: 'kwok' },
            annotations: { 'kwok.x-k8s.io/node': 'fake' },
          },
          // Only this test's pod may land on it: the node is deleted at the end.
          spec: { taints: [{ key: 'chaoskit.io/interrupt', value: ns, effect: 'NoSchedule' }] },
        },
      });
      await until('node Ready', async () =>
        (await core.readNode({ name: ns })).status?.conditions?.some(
          (c) => c.type === 'Ready' && c.status === 'True',
        ),
      );
      await deploy(cluster.kc, ns, 'pinned', 1, {
        podSpec: {
          nodeSelector: { 'chaoskit.io/interrupt': ns },
          tolerations: [{ key: 'chaoskit.io/interrupt', operator: 'Equal', value: ns, effect: 'NoSchedule' }],
        },
      });
      const selector = `chaoskit.io/interrupt=${ns}`;
      return {
        action: python('chaoscluster.node.actions', 'drain_nodes', { label_selector: selector, timeout: 30 }),
        rollback: python('chaoscluster.node.actions', 'uncordon_node', { label_selector: selector }),
      };
    },
    // What a drain changes of a node: its spec (unschedulable, and the taint the node controller
    // adds for it) and chaoskit's mark; the controllers' own annotations come and go.
    state: async (ns) => {
      const node = (await core.readNode({ name: ns })) as unknown as Obj;
      const annotations = (node.metadata?.annotations ?? {}) as Record<string, string>;
      return {
        spec: comparable(node)?.spec ?? {},
        labels: node.metadata?.labels,
        marks: Object.keys(annotations).filter((k) => k.startsWith('chaoskit.io/')),
      };
    },
  },
  {
    name: 'network policy',
    async setup(ns) {
      return {
        action: python('chaoscluster.networking.actions', 'deny_all_ingress', {
          ns,
          label_selectors: { app: 'web' },
        }),
        rollback: python('chaoscluster.networking.actions', 'remove_deny_all_ingress', { ns }),
      };
    },
    state: async (ns) =>
      (
        await cluster.kc.makeApiClient(NetworkingV1Api).listNamespacedNetworkPolicy({ namespace: ns })
      ).items.map((p) => p.metadata?.name),
  },
  {
    name: 'deployment scale',
    async setup(ns) {
      await deploy(cluster.kc, ns, 'api', 2);
      return {
        action: python('chaoscluster.deployment.actions', 'scale_deployment', {
          name: 'api',
          ns,
          replicas: 0,
        }),
        rollback: python('chaoscluster.deployment.actions', 'scale_deployment', {
          name: 'api',
          ns,
          replicas: 2,
        }),
      };
    },
    state: (ns) => deploymentState(ns, 'api'),
  },
  {
    name: 'custom object patch',
    async setup(ns) {
      await custom.createNamespacedCustomObject({
        group: CRD_GROUP,
        version: 'v1',
        namespace: ns,
        plural: 'widgets',
        body: {
          apiVersion: `${CRD_GROUP}/v1`,
          kind: 'Widget',
          metadata: { name: 'w' },
          spec: { size: 1, color: 'blue' },
        },
      });
      const patch = (size: number) =>
        python('chaoscluster.crd.actions', 'patch_custom_object', {
          group: CRD_GROUP,
          version: 'v1',
          plural: 'widgets',
          name: 'w',
          ns,
          force: true,
          resource: {
            apiVersion: `${CRD_GROUP}/v1`,
            kind: 'Widget',
            metadata: { name: 'w' },
            spec: { size },
          },
        });
      return { action: patch(5), rollback: patch(1) };
    },
    state: async (ns) =>
      comparable(
        (await custom.getNamespacedCustomObject({
          group: CRD_GROUP,
          version: 'v1',
          namespace: ns,
          plural: 'widgets',
          name: 'w',
        })) as Obj,
      )?.spec,
  },
  {
    name: 'mesh fault',
    async setup(ns) {
      await createVirtualService(cluster.kc, ns, 'reviews', {
        hosts: ['reviews'],
        http: [{ route: [{ destination: { host: 'reviews', subset: 'v1' } }] }],
      });
      const routes = [{ destination: { host: 'reviews' } }];
      return {
        action: python('chaosmesh.fault.actions', 'add_abort_fault', {
          virtual_service_name: 'reviews',
          ns,
          version: 'networking.istio.io/v1',
          http_status: 503,
          percentage: 100,
          routes,
        }),
        rollback: python('chaosmesh.fault.actions', 'remove_abort_fault', {
          virtual_service_name: 'reviews',
          ns,
          version: 'networking.istio.io/v1',
          routes,
        }),
      };
    },
    state: async (ns) => {
      const vs = comparable(
        (await custom.getNamespacedCustomObject({
          group: 'networking.istio.io',
          version: 'v1',
          namespace: ns,
          plural: 'virtualservices',
          name: 'reviews',
        })) as Obj,
      );
      return { spec: vs?.spec, annotations: vs?.metadata?.annotations ?? {} };
    },
  },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-interrupt-'));
  await installCrd(
    cluster.kc,
    { group: CRD_GROUP, plural: 'widgets', kind: 'Widget' },
    { size: { type: 'integer' }, color: { type: 'string' } },
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The family's state, once it equals `expected` (the controllers settle), or the last one seen. */
async function settled(family: Family, ns: string, expected: unknown): Promise<unknown> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await family.state(ns);
    if (JSON.stringify(state) === JSON.stringify(expected) || Date.now() > deadline) return state;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs the experiment of `family` until its action is done, then signals it. */
async function interrupted(family: Family, signal: 'SIGINT' | 'SIGTERM' | 'SIGKILL') {
  const ns = await testNamespace(cluster.kc, `int-${signal.toLowerCase()}`);
  const { action, rollback } = await family.setup(ns.name);
  const before = await family.state(ns.name);
  const file = join(dir, `${ns.name}.yaml`);
  const journalPath = join(dir, `${ns.name}.journal.json`);
  await writeFile(
    file,
    dump({
      title: `${family.name}, interrupted`,
      description: 'the action, then a long pause during which the run is signalled',
      method: [{ type: 'action', name: 'fault', provider: action, pauses: { after: 120 } }],
      rollbacks: [
        { type: rollback.func.includes('available') ? 'probe' : 'action', name: 'undo', provider: rollback },
      ],
    }),
  );
  const child: ChildProcess = spawnCli(
    ['run', file, '--journal-path', journalPath, '--ledger-namespace', ns.name],
    { env: env(), cwd: dir },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  let gone = false;
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      gone = true;
      r(code);
    }),
  );
  // The journal is written as the run goes: once the action is in it, the method is under way.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`the run ended before it could be signalled:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`the action was not done within 60 s:\n${stderr}`);
    const journal = existsSync(journalPath)
      ? (JSON.parse(await readFile(journalPath, 'utf8').catch(() => '{}')) as {
          run?: Array<{ status: string }>;
        })
      : {};
    if (journal.run?.[0]?.status === 'succeeded') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // (Terminated pods are replaced at once: only the other families' changes can be seen here.)
  if (family.name !== 'pod termination') {
    expect(await family.state(ns.name), 'the action changed nothing').not.toEqual(before);
  }
  child.kill(signal);
  const code = await exited;
  return { ns, before, code, stderr, journalPath };
}

describe.each(families)('$name', (family) => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'interrupted by %s: the rollbacks play, the journal says interrupted, the cluster is as before',
    async (signal) => {
      const { ns, before, code, stderr, journalPath } = await interrupted(family, signal);
      try {
        expect(code, stderr).toBe(signal === 'SIGINT' ? 130 : 143);
        const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
          status: string;
          rollbacks: Array<{ status: string }>;
          left_in_place?: string[];
        };
        expect(journal.status).toBe('interrupted');
        expect(journal.rollbacks.map((r) => r.status)).toEqual(['succeeded']);
        expect(journal.left_in_place).toBeUndefined();
        expect(await settled(family, ns.name, before)).toEqual(before);
        // Nothing left in place, so no record is kept.
        expect(
          (await core.listNamespacedConfigMap({ namespace: ns.name, labelSelector: 'chaoskit.io/ledger' }))
            .items,
        ).toEqual([]);
      } finally {
        if (family.name === 'drain and cordon')
          await core.deleteNode({ name: ns.name }).catch(() => undefined);
        await ns.remove();
      }
    },
    120_000,
  );

  it('killed (SIGKILL): chaoskit status lists the run, chaoskit revert restores the cluster', async () => {
    const { ns, before, code } = await interrupted(family, 'SIGKILL');
    try {
      expect(code).toBeNull();
      const listed = await chaoskit(['status', '--ledger-namespace', ns.name, '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const { runs, not_verified } = JSON.parse(listed.stdout) as {
        runs: Array<{ runId: string; left: number; pods: unknown[] }>;
        not_verified: Array<{ where: string }>;
      };
      // Marks are found cluster-wide; those of other files' runs (other ledgers, forged ones of
      // the forgery tests) cannot be verified with this ledger's key and are not this test's.
      expect(not_verified.filter((n) => n.where.includes(`'${ns.name}'`))).toEqual([]);
      expect(runs).toHaveLength(1);
      expect(runs[0]!.left + runs[0]!.pods.length).toBeGreaterThan(0);
      const reverted = await chaoskit(['revert', runs[0]!.runId, '--ledger-namespace', ns.name]);
      expect(reverted.code, reverted.stderr).toBe(0);
      expect(reverted.stdout).toMatch(/0 refused/);
      expect(await settled(family, ns.name, before)).toEqual(before);
      const after = JSON.parse((await chaoskit(['status', '--ledger-namespace', ns.name, '--json'])).stdout);
      expect(after.runs).toEqual([]);
      expect(after.not_verified.filter((n: { where: string }) => n.where.includes(`'${ns.name}'`))).toEqual(
        [],
      );
    } finally {
      if (family.name === 'drain and cordon') await core.deleteNode({ name: ns.name }).catch(() => undefined);
      await ns.remove();
    }
  }, 120_000);
});
