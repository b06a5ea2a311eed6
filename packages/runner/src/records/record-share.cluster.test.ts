// The pod share rail holds across runs: twenty runs started together, each terminating a
// quarter of a 200-pod namespace with a share of 50 % allowed, remove at most half of its pods
// between them — each run records its pods before it removes them, and counts what the other
// runs' records hold (the audit log counts the deletions).

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '@chaoskit/cluster';
import { deploy, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { python } from '../testing/test-experiments.js';
import { startRun } from '../testing/test-runs.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const RUNS = 20;
const PODS = 200;
let dir: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;
const nodes = ['a', 'b'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-share-'));
  ns = await testNamespace(cluster.kc, 'share');
  // Nodes of its own, so 200 pods do not crowd the shared ones.
  for (const n of nodes)
    await core.createNode({
      body: {
        metadata: {
          name: `${ns.name}-${n}`,
          labels: { type: 'kwok', 'chaoskit.io/share-test': ns.name },
          annotations: { 'kwok.x-k8s.io/node': 'fake' },
        },
        spec: { taints: [{ key: 'chaoskit.io/share-test', value: ns.name, effect: 'NoSchedule' }] },
      },
    });
  await deploy(cluster.kc, ns.name, 'web', PODS, {
    podSpec: {
      nodeSelector: { 'chaoskit.io/share-test': ns.name },
      tolerations: [
        { key: 'chaoskit.io/share-test', operator: 'Equal', value: ns.name, effect: 'NoSchedule' },
      ],
    },
    timeoutMs: 240_000,
  });
}, 300_000);

afterAll(async () => {
  await ns.remove();
  for (const n of nodes) await core.deleteNode({ name: `${ns.name}-${n}` }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

it(`${RUNS} runs of 25 % each, started together with 50 % allowed, remove at most half of ${PODS} pods`, async () => {
  const env = { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath };
  const experiment = {
    title: 'a quarter of the pods',
    description: 'waits for the others, then terminates 50 random pods of 200 and holds them',
    method: [
      {
        // All runs start the action together: each says it is ready, then waits for `go`.
        type: 'probe',
        name: 'together',
        provider: {
          type: 'process',
          path: 'sh',
          arguments: ['-c', 'mktemp ready-XXXXXX; until [ -e go ]; do sleep 0.05; done'],
          timeout: 240,
        },
      },
      {
        type: 'action',
        name: 'a quarter',
        provider: python('chaoscluster.pod.actions', 'terminate_pods', {
          ns: ns.name,
          label_selector: 'app=web',
          qty: 50,
          rand: true,
          grace_period: 0,
        }),
        // Long enough that every run's record is still there when the last one checks.
        pauses: { after: 20 },
      },
    ],
  };
  const since = new Date();
  const runs = await Promise.all(
    Array.from({ length: RUNS }, (_, i) =>
      startRun(dir, `run-${i}`, experiment, {
        env,
        args: ['--ledger-namespace', ns.name, '--max-pod-share', '0.5'],
      }),
    ),
  );
  await until(
    `${RUNS} runs ready`,
    async () => (await readdir(dir)).filter((f) => f.startsWith('ready-')).length === RUNS,
    240_000,
  );
  await writeFile(join(dir, 'go'), '');
  const ends = await Promise.all(runs.map((r) => r.exited));
  const deleted = new Set(
    (await readAuditLog(cluster.auditLogPath, { since }))
      .filter(
        (e) => e.verb === 'delete' && e.objectRef?.resource === 'pods' && e.objectRef.namespace === ns.name,
      )
      .filter((e) => (e.responseStatus?.code ?? 0) < 300)
      .map((e) => e.objectRef?.name),
  );
  const passed = ends.filter((e) => e.code === 0).length;
  const refused = ends.filter((e) =>
    /the selection is 50 of the \d+ pods .* removed \d+ more/.test(e.stderr),
  ).length;
  console.log(
    `${RUNS} runs: ${passed} removed their pods, ${refused} refused by the share rail; pods deleted: ${deleted.size} of ${PODS}`,
  );
  expect(deleted.size).toBeGreaterThanOrEqual(50);
  expect(deleted.size).toBeLessThanOrEqual(PODS / 2);
  expect(passed + refused).toBe(RUNS);
  expect(existsSync(join(dir, 'go'))).toBe(true);
}, 600_000);
