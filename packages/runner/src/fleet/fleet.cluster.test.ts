// A fleet run over three clusters (the shared one and two of the file's own), as a user types
// it: `chaoskit run x.yaml --contexts a,b,c --waves 1,2,3`, with a deviation planted in the
// second wave's cluster. The third wave must never start — its apiserver's audit log shows no
// request of the run's identity —, the journals and the aggregate say why, and the first
// cluster's run completed and was rolled back. Then Ctrl-C in the middle of a fleet run: every
// running context plays its rollbacks.

import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCluster, readAuditLog, start } from '@chaoskit/cluster';
import {
  createNamespace,
  deploy,
  kubeconfigEnv,
  serviceAccountToken,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment, parseWaves, prepareExperiment, runFleet } from '../index.js';
import { spawnCli } from '../testing/test-cli.js';
import { activity } from '../testing/test-experiments.js';

interface Member {
  /** Its kubeconfig context: what the user types; never shown by the run. */
  context: string;
  kc: KubeConfig;
  server: string;
  caFile: string;
  auditLogPath: string;
  token?: string;
}

const shared = sharedCluster();
const own: LocalCluster[] = [];
const NAMES = ['fleet-amber-eu', 'fleet-birch-us', 'fleet-cedar-ap'];
const unique = `${process.pid}`;
const ns = `fleet-${unique}`;
const runner = 'fleet-runner';
const identity = `system:serviceaccount:${ns}:${runner}`;
const binding = `fleet-runner-${unique}`;
let members: Member[];
let dir: string;
let kubeconfig: string;

const kcOf = (text: string) => {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return kc;
};

/** One kubeconfig with a context per member, each as the run's identity on its own cluster. */
const mergedKubeconfig = (list: Member[]) =>
  dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: list.map((m) => ({
      name: m.context,
      cluster: { server: m.server, 'certificate-authority': m.caFile },
    })),
    users: list.map((m) => ({ name: m.context, user: { token: m.token } })),
    contexts: list.map((m) => ({ name: m.context, context: { cluster: m.context, user: m.context } })),
    'current-context': list[0]!.context,
  });

beforeAll(async () => {
  // One after the other: three control planes at once are heavy on a small machine.
  for (let i = 0; i < 2; i++) own.push(await start({ provider: 'local', nodes: 1, mesh: false }));
  members = [
    {
      context: NAMES[0]!,
      kc: shared.kc,
      server: shared.server,
      caFile: shared.credentials.caFile,
      auditLogPath: shared.auditLogPath,
    },
    ...own.map((c, i) => ({
      context: NAMES[i + 1]!,
      kc: kcOf(c.kubeconfig),
      server: c.credentials.server,
      caFile: c.credentials.caFile,
      auditLogPath: c.auditLogPath,
    })),
  ];
  for (const [i, m] of members.entries()) {
    await createNamespace(m.kc, ns);
    const sa = await serviceAccountToken(m.kc, ns, runner, [
      { role: 'cluster-admin', clusterBinding: binding },
    ]);
    expect(sa.identity).toBe(identity);
    m.token = sa.token;
    await deploy(m.kc, ns, 'web', 2, { timeoutMs: 180_000 });
    // The deviation planted in the second wave's cluster: its `guard`, which the hypothesis
    // counts, is missing (`web`, which the method scales and the rollback scales back, is not:
    // the rollbacks play after a hypothesis not met, as in Chaos Toolkit).
    if (i !== 1) await deploy(m.kc, ns, 'guard', 1, { timeoutMs: 180_000 });
  }
  dir = await mkdtemp(join(tmpdir(), 'fleet-'));
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, mergedKubeconfig(members));
}, 900_000);

afterAll(async () => {
  await shared.kc
    .makeApiClient(RbacAuthorizationV1Api)
    .deleteClusterRoleBinding({ name: binding })
    .catch(() => undefined);
  await shared.kc
    .makeApiClient(CoreV1Api)
    .deleteNamespace({ name: ns })
    .catch(() => undefined);
  for (const c of own) await c.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 300_000);

const replicasOf = async (m: Member) =>
  (await m.kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: ns })).spec
    ?.replicas;

/** `web` scaled to 3 and back; the hypothesis counts the pods of `guard` (none where it is missing). */
async function experiment(name: string, pauseAfter = 0): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  const scale = (replicas: number) =>
    activity('action', `scale-web-to-${replicas}`, 'chaoscluster.deployment.actions', 'scale_deployment', {
      ns,
      name: 'web',
      replicas,
    });
  await writeFile(
    file,
    dump({
      title: `web survives more replicas (${name})`,
      description: 'a fleet run',
      'steady-state-hypothesis': {
        title: 'guard has its pod',
        probes: [
          {
            ...activity('probe', 'guard-pods', 'chaoscluster.pod.probes', 'count_pods', {
              ns,
              label_selector: 'app=guard',
            }),
            tolerance: 1,
          },
        ],
      },
      method: [{ ...scale(3), ...(pauseAfter ? { pauses: { after: pauseAfter } } : {}) }],
      rollbacks: [scale(2)],
    }),
  );
  return file;
}

/** `chaoskit run` as a child process; resolves with its exit code and stderr. */
function chaoskit(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stderr: string }>;
} {
  const child = spawnCli(['run', ...args], { env: kubeconfigEnv(kubeconfig), cwd: dir });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  child.stdout?.resume();
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  return { child, done };
}

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('a fleet run in canary waves', () => {
  it('stops at the wave whose steady state deviates: the third never starts, and the journals say why', async () => {
    const since = new Date();
    const journalPath = join(dir, 'waves.json');
    const { done } = chaoskit([
      await experiment('waves'),
      '--contexts',
      NAMES.join(','),
      '--waves',
      '1,2,3',
      '--journal-path',
      journalPath,
    ]);
    const { code, stderr } = await done;
    // The second context exits 0 alone (its steady state did not hold before the method, as in
    // Chaos Toolkit), but the fleet did not reach every context: 1 (D115).
    expect(code, stderr).toBe(1);

    const aggregate = await readJson(join(dir, 'waves.fleet.json'));
    expect(aggregate.waves).toEqual([
      { wave: 1, contexts: ['context 1'], status: 'completed' },
      { wave: 2, contexts: ['context 2'], status: 'stopped' },
      { wave: 3, contexts: ['context 3'], status: 'not-run' },
    ]);
    const [first, second, third] = aggregate.contexts;
    expect(first).toMatchObject({ label: 'context 1', status: 'ran', run_status: 'completed', exit_code: 0 });
    expect(second).toMatchObject({ label: 'context 2', status: 'ran', exit_code: 0 });
    expect(second.reason).toBe('its steady state was not met before the method (the method did not run)');
    expect(third).toMatchObject({ label: 'context 3', status: 'not-run' });
    expect(third.reason).toBe(
      'context 2 (wave 2) stopped the waves: its steady state was not met before the method (the method did not run)',
    );
    expect(aggregate.stopped).toEqual({ wave: 2, context: 'context 2', reason: second.reason });
    expect(aggregate.exit_code).toBe(1);

    // Each context's own journal: the first ran its method and its rollback; the second's
    // hypothesis found no pod, so its method did not run (its rollback did, as in Chaos
    // Toolkit); the third has none.
    const one = await readJson(join(dir, 'waves.context-1.json'));
    expect(one.status).toBe('completed');
    expect(one.run.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    expect(one.rollbacks.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    expect(one.run_id).toBe(first.run_id);
    const two = await readJson(join(dir, 'waves.context-2.json'));
    expect(two.steady_states.before.steady_state_met).toBe(false);
    expect(two.steady_states.before.probes[0].output).toBe(0);
    expect(two.run).toEqual([]);
    expect(two.rollbacks.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    expect(existsSync(join(dir, 'waves.context-3.json'))).toBe(false);

    // The clusters: the first was scaled and scaled back by the run's identity; the second
    // heard from it; the third never did.
    expect(await replicasOf(members[0]!)).toBe(2);
    const scaled = await readAuditLog(members[0]!.auditLogPath, { user: identity, since });
    expect(
      scaled.filter((e) => e.objectRef?.name === 'web' && ['patch', 'update'].includes(e.verb)).length,
    ).toBeGreaterThanOrEqual(2);
    expect((await readAuditLog(members[1]!.auditLogPath, { user: identity, since })).length).toBeGreaterThan(
      0,
    );
    expect(await readAuditLog(members[2]!.auditLogPath, { user: identity })).toEqual([]);

    // No context's name in what may be shared: the lines, the journals.
    const written = [
      stderr,
      ...(await Promise.all(
        ['waves.fleet.json', 'waves.context-1.json', 'waves.context-2.json'].map((f) =>
          readFile(join(dir, f), 'utf8'),
        ),
      )),
    ];
    for (const text of written) for (const name of NAMES) expect(text).not.toContain(name);
    expect(stderr).toContain(
      'Wave 2 stopped the waves after it: context 2: its steady state was not met before the method',
    );
  }, 600_000);

  it('Ctrl-C interrupts every running context: each plays its rollbacks, and no other starts', async () => {
    const journalPath = join(dir, 'sigint.json');
    // The first and third clusters (the second has no guard) at once, then a wave the signal stops.
    const sub = [members[0]!, members[2]!, members[1]!].map((m) => m.context);
    const { child, done } = chaoskit([
      await experiment('sigint', 600),
      '--contexts',
      sub.join(','),
      '--waves',
      '2',
      '--parallel',
      '2',
      '--journal-path',
      journalPath,
    ]);
    // Both running contexts have scaled `web` (their journals say so) and are in their pause.
    await until(
      'both running contexts scaled web',
      async () => {
        for (const n of [1, 2]) {
          const path = join(dir, `sigint.context-${n}.json`);
          if (!existsSync(path)) return false;
          const journal = await readJson(path).catch(() => ({}));
          if (journal.run?.[0]?.status !== 'succeeded') return false;
        }
        return true;
      },
      180_000,
      200,
    );
    expect(await replicasOf(members[0]!)).toBe(3);
    expect(await replicasOf(members[2]!)).toBe(3);
    child.kill('SIGINT');
    const { code, stderr } = await done;
    expect(code, stderr).toBe(130);
    for (const n of [1, 2]) {
      const journal = await readJson(join(dir, `sigint.context-${n}.json`));
      expect(journal.status).toBe('interrupted');
      expect(journal.rollbacks.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    }
    expect(await replicasOf(members[0]!)).toBe(2);
    expect(await replicasOf(members[2]!)).toBe(2);
    const aggregate = await readJson(join(dir, 'sigint.fleet.json'));
    expect(
      aggregate.contexts.map((c: { status: string; exit_code?: number }) => [c.status, c.exit_code]),
    ).toEqual([
      ['ran', 130],
      ['ran', 130],
      ['not-run', undefined],
    ]);
    expect(aggregate.contexts[2].reason).toBe('the fleet run was interrupted before it started');
    expect(existsSync(join(dir, 'sigint.context-3.json'))).toBe(false);
  }, 600_000);

  it("runs from code: runFleet returns each context's result and the aggregate", async () => {
    const file = await experiment('code');
    // #region run-fleet
    const prepared = await prepareExperiment(await loadExperiment(file));
    const fleet = await runFleet(prepared, {
      contexts: ['fleet-amber-eu', 'fleet-cedar-ap'],
      kubeconfig,
      waves: parseWaves('1'),
      ledger: { namespace: 'default', ttlSeconds: 24 * 3600 },
    });
    for (const context of fleet.contexts)
      console.log(context.label, context.wave, context.status, context.exitCode, context.reason ?? '');
    // #endregion
    expect(fleet.exitCode).toBe(0);
    expect(fleet.contexts.map((c) => [c.label, c.wave, c.status, c.exitCode, c.journal?.status])).toEqual([
      ['context 1', 1, 'ran', 0, 'completed'],
      ['context 2', 2, 'ran', 0, 'completed'],
    ]);
    expect(fleet.aggregate.waves.map((w) => w.status)).toEqual(['completed', 'completed']);
    expect(await replicasOf(members[0]!)).toBe(2);
    expect(await replicasOf(members[2]!)).toBe(2);
  }, 600_000);
});
