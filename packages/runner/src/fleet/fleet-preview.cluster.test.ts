// `plan` and `validate` over a fleet, as `run` takes one (D125): two kubeconfig contexts on the
// shared cluster, one as an identity that may run the experiment, one as an identity that may
// only look. `plan` says per context what would change (server-side dry runs: the audit log
// shows no other write), `validate` checks each context as a run's preflight would (only
// questions reach the apiserver); neither shows a context's name.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDryRun, isMutation, readAuditLog } from '@chaoskit/cluster';
import {
  apisOf,
  deploy,
  fileNamespace,
  kubeconfigEnv,
  kubeconfigYaml,
  serviceAccountToken,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { runCli } from '../testing/test-cli.js';
import { killOneWebPod } from '../testing/test-experiments.js';

const cluster = sharedCluster();
const { core } = apisOf(cluster.kc);
const ns = fileNamespace(cluster.kc, 'preview');
const CONTEXTS = ['preview-runner-eu', 'preview-viewer-us'];
let dir: string;
let env: NodeJS.ProcessEnv;
let identities: string[];

const podNames = async () =>
  (await core.listNamespacedPod({ namespace: ns.name, labelSelector: 'app=web' })).items
    .map((p) => p.metadata!.name!)
    .sort();

const chaoskit = (args: string[]) => runCli(args, { env, cwd: dir });

/** Every request of the two identities since `since`, once the last one's questions are logged. */
const requestsSince = (since: Date, last: string) =>
  until('the requests in the audit log', async () => {
    const events = (
      await Promise.all(identities.map((user) => readAuditLog(cluster.auditLogPath, { user, since })))
    ).flat();
    return events.some((e) => e.user.username === last) && events;
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-preview-'));
  await deploy(cluster.kc, ns.name, 'web', 2);
  const runner = await serviceAccountToken(cluster.kc, ns.name, 'runner', [{ role: 'admin' }]);
  const viewer = await serviceAccountToken(cluster.kc, ns.name, 'viewer', [{ role: 'view' }]);
  identities = [runner.identity, viewer.identity];
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    kubeconfigYaml(
      cluster.credentials,
      { runner: { token: runner.token }, viewer: { token: viewer.token } },
      { [CONTEXTS[0]!]: 'runner', [CONTEXTS[1]!]: 'viewer' },
      CONTEXTS[0]!,
    ),
  );
  env = kubeconfigEnv(kubeconfig);
  await writeFile(
    join(dir, 'kill.yaml'),
    dump({
      title: 'one web pod goes',
      description: 'a fleet previewed',
      method: [killOneWebPod(ns.name)],
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('plan --contexts: one plan per context, by its place; only dry runs reach the cluster', async () => {
  const before = await podNames();
  const since = new Date();
  const out = await chaoskit(['plan', 'kill.yaml', '--contexts', CONTEXTS.join(',')]);
  // The viewer's context would fail: the server refuses its dry-run delete.
  expect(out.code, out.stderr).toBe(1);
  const [first = '', second = ''] = out.stdout.split(/^(?=context 2)/m);
  expect(first).toMatch(/^context 1\nmethod · kill · chaoscluster\.pod\.actions\.terminate_pods\n/);
  expect(first).not.toContain('WOULD FAIL');
  const [target] = JSON.parse(first.split('\n')[2]!.trim()).pods as string[];
  expect(before).toContain(target);
  expect(second).toMatch(/^context 2 · WOULD FAIL\nmethod · kill · \S+ · WOULD FAIL\n.*forbidden/);
  for (const name of CONTEXTS) expect(out.stdout + out.stderr).not.toContain(name);
  const writes = (await requestsSince(since, identities[1]!)).filter(isMutation);
  expect(writes.length).toBeGreaterThan(0);
  expect(writes.filter((e) => !isDryRun(e))).toEqual([]);
  expect(await podNames()).toEqual(before);

  const json = await chaoskit(['plan', 'kill.yaml', '--all-contexts', '--json']);
  const { contexts } = JSON.parse(json.stdout);
  expect(contexts.map((c: { context: string }) => c.context)).toEqual(['context 1', 'context 2']);
  expect(contexts.map((c: { plan: Array<{ failed?: boolean }> }) => c.plan[0]!.failed ?? false)).toEqual([
    false,
    true,
  ]);
});

it("validate --all-contexts: each context checked as a run's preflight, naming what a refused one lacks", async () => {
  const since = new Date();
  const out = await chaoskit(['validate', 'kill.yaml', '--all-contexts', '--ledger-namespace', ns.name]);
  expect(out.code, out.stderr).toBe(EXIT.refused);
  const lines = out.stdout.trim().split('\n');
  expect(lines.slice(0, 2)).toEqual([
    'experiment syntax and semantic look valid',
    'context 1: ready: a run would start',
  ]);
  expect(lines[2]).toContain(
    `context 2: a run would be refused: User "${identities[1]}" may not delete pods in namespace '${ns.name}' (activity 'kill'): `,
  );
  expect(lines).toHaveLength(3);
  for (const name of CONTEXTS) expect(out.stdout + out.stderr).not.toContain(name);
  // Questions only: who each identity is, what it may do, and whether the key that would seal
  // its record is there (a read, D158).
  const requests = await requestsSince(since, identities[1]!);
  expect(requests.filter(isMutation)).toEqual([]);
  expect(new Set(requests.map((e) => e.objectRef?.resource))).toEqual(
    new Set(['selfsubjectreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'secrets']),
  );
  expect(
    requests.filter((e) => e.objectRef?.resource === 'secrets').map((e) => `${e.verb} ${e.objectRef?.name}`),
  ).toEqual(expect.arrayContaining(['get chaoskit-ledger-key']));
});

it('validate --context: the one cluster named, checked the same way', async () => {
  const out = await chaoskit([
    'validate',
    'kill.yaml',
    '--context',
    CONTEXTS[0]!,
    '--ledger-namespace',
    ns.name,
  ]);
  expect(out.code, out.stderr).toBe(0);
  expect(out.stdout).toBe(
    'experiment syntax and semantic look valid\nthe cluster: ready: a run would start\n',
  );
  // Without a cluster named, validate stays offline.
  const offline = await chaoskit(['validate', 'kill.yaml']);
  expect(offline.stdout).toBe('experiment syntax and semantic look valid\n');
});
