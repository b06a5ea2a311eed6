// The halt lever obeys only those allowed to pull it (D159), on a cluster of this file's own: a
// cluster halt stops every run of the cluster, and the shared cluster's other files run there.
// Without the admission policy, `halt` says the lever is unprotected. With it (`chaoskit rbac
// --halt`, applied): a cluster halt stops runs recording in two namespaces, each rolled back
// (the time from the lever set to each rollback is printed); a run that would start is refused;
// an identity that may write every ConfigMap may not lift it, nor the halted runner's own
// token, nor a halter (who may only pull it); the lever's `by` is the API server's account of
// who set it; the resumer lifts it. Bad input is refused before any request.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LocalCluster, readAuditLog, start } from '@chaoskit/cluster';
import { deploy, kubeconfigYaml, serviceAccountToken, until } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Journal } from '../run/index.js';
import { runCli } from '../testing/test-cli.js';
import { python } from '../testing/test-experiments.js';
import { startRun } from '../testing/test-runs.js';

let cluster: LocalCluster;
let kc: KubeConfig;
let dir: string;
const ids: Record<string, { token: string; identity: string; env: NodeJS.ProcessEnv }> = {};

const chaoskit = (who: string, args: string[]) => runCli(args, { env: ids[who]!.env, cwd: dir });
const core = () => kc.makeApiClient(CoreV1Api);
const lever = (namespace = 'kube-system') =>
  core()
    .readNamespacedConfigMap({ name: 'chaoskit-halt', namespace })
    .catch(() => undefined);

/** A kubeconfig of `token` alone: its own file, as people keep them. */
async function identity(name: string, grants: Parameters<typeof serviceAccountToken>[3]) {
  const sa = await serviceAccountToken(kc, 'chaos-ops', name, grants);
  const path = join(dir, `${name}.kubeconfig`);
  await writeFile(path, kubeconfigYaml(cluster.credentials, { u: { token: sa.token } }, { u: 'u' }, 'u'));
  ids[name] = { ...sa, env: { ...process.env, KUBECONFIG: path, CLUSTERCONFIG: '' } };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-lever-'));
  cluster = await start({ provider: 'local', nodes: 2, mesh: false });
  kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: 'lever-test-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: cluster.users.unprivileged }],
    },
  });
  for (const ns of ['chaos-ops', 'team-a', 'team-b', 'shop'])
    await core().createNamespace({ body: { metadata: { name: ns } } });
  for (const name of ['a', 'b']) await deploy(kc, 'shop', name, 2, { timeoutMs: 180_000 });
  await identity('admin', [{ role: 'cluster-admin', clusterBinding: 'lever-admin' }]);
  // May write every ConfigMap in the cluster: nothing about the lever.
  await rbac.createClusterRole({
    body: {
      metadata: { name: 'configmap-writer' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
    },
  });
  await identity('writer', [{ role: 'configmap-writer', clusterBinding: 'lever-writer' }]);
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
});

const audited = async (user: string, since: Date) =>
  (await readAuditLog(cluster.auditLogPath, { user, since })).map(
    (e) =>
      `${e.verb} ${e.objectRef?.resource ?? e.requestURI} ${e.objectRef?.name ?? ''} (${e.responseStatus?.code})`,
  );

describe('without the admission policy', () => {
  it('halt says that anyone who may write ConfigMaps there may move the lever', async () => {
    const halted = await chaoskit('admin', ['halt', '--reason', 'a drill']);
    expect(halted.code, halted.stderr).toBe(0);
    expect(halted.stdout).toMatch(
      /^chaoskit is halted in the cluster by system:serviceaccount:chaos-ops:admin at /,
    );
    expect(halted.stderr).toContain('the lever is not protected');
    expect(halted.stderr).toContain('chaoskit rbac --halt');
    const resumed = await chaoskit('writer', ['resume']);
    expect(resumed.stdout).toContain('chaoskit is resumed in the cluster');
    expect(await lever()).toBeUndefined();
  });
});

describe('with the admission policy of chaoskit rbac --halt', () => {
  beforeAll(async () => {
    const printed = await chaoskit('admin', ['rbac', '--halt']);
    expect(printed.code, printed.stderr).toBe(0);
    await writeFile(join(dir, 'lever.yaml'), printed.stdout);
    await promisify(execFile)(cluster.kubectl, [
      '--kubeconfig',
      join(dir, 'admin.kubeconfig'),
      'apply',
      '-f',
      join(dir, 'lever.yaml'),
    ]);
    // A policy is enforced a moment after it is made: until then, a writer's lever is let through.
    await until(
      'the policy is in force',
      async () =>
        (
          await promisify(execFile)(cluster.kubectl, [
            '--kubeconfig',
            join(dir, 'writer.kubeconfig'),
            'create',
            'configmap',
            'chaoskit-halt',
            '-n',
            'team-b',
            '--dry-run=server',
          ]).catch((err: { stderr: string }) => err)
        ).stderr?.includes('only who may halt') ?? false,
      { timeoutMs: 60_000 },
    );
    await identity('halter', [{ role: 'chaoskit-halter', clusterBinding: 'lever-halter' }]);
    await identity('resumer', [{ role: 'chaoskit-resumer', clusterBinding: 'lever-resumer' }]);
    // A runner deployed in team-a: its token holds what deploy gave it.
    await writeFile(
      join(dir, 'shrink.yaml'),
      JSON.stringify({
        title: 'a shrinks',
        description: 'deployed',
        method: [
          {
            type: 'action',
            name: 'shrink',
            provider: python('chaoscluster.deployment.actions', 'scale_deployment', {
              name: 'a',
              replicas: 1,
              ns: 'shop',
            }),
          },
        ],
      }),
    );
    const deployed = await chaoskit('admin', [
      'deploy',
      'shrink.yaml',
      '-n',
      'team-a',
      '--schedule',
      '0 0 1 1 *',
    ]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const token = await core().createNamespacedServiceAccountToken({
      name: 'chaoskit-shrink',
      namespace: 'team-a',
      body: { spec: { audiences: [] } },
    });
    const path = join(dir, 'runner.kubeconfig');
    await writeFile(
      path,
      kubeconfigYaml(cluster.credentials, { u: { token: token.status!.token! } }, { u: 'u' }, 'u'),
    );
    ids.runner = {
      token: token.status!.token!,
      identity: 'system:serviceaccount:team-a:chaoskit-shrink',
      env: { ...process.env, KUBECONFIG: path, CLUSTERCONFIG: '' },
    };
  }, 120_000);

  afterAll(async () => {
    await chaoskit('admin', ['resume']);
  });

  const scale = (name: string, replicas: number) =>
    python('chaoscluster.deployment.actions', 'scale_deployment', { name, replicas, ns: 'shop' });
  const experiment = (name: string, pause = 300) => ({
    title: `${name} without replicas`,
    description: 'scaled down, then back',
    method: [{ type: 'action', name: 'scale-down', provider: scale(name, 0), pauses: { after: pause } }],
    rollbacks: [{ type: 'action', name: 'scale-up', provider: scale(name, 2) }],
  });
  const replicas = async (name: string) =>
    (await kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name, namespace: 'shop' })).spec?.replicas;

  it('a cluster halt stops every run, wherever it records, and refuses new ones', async () => {
    const runs = await Promise.all(
      [
        ['a', 'team-a'],
        ['b', 'team-b'],
      ].map(([name, ledger]) =>
        startRun(dir, name!, experiment(name!), {
          env: ids.admin!.env,
          args: ['--ledger-namespace', ledger!],
        }),
      ),
    );
    await Promise.all(runs.map((r) => r.methodDone(1)));
    const halted = await chaoskit('halter', ['halt', '--reason', 'incident 7: checkout is down']);
    expect(halted.code, halted.stderr).toBe(0);
    expect(halted.stderr).toBe('');
    const set = await lever();
    // Who set it is the API server's account of the identity: the policy checked it.
    expect(set?.data?.by).toBe(ids.halter!.identity);
    const at = Date.parse(set!.data!.at!);
    const took: string[] = [];
    for (const [i, name] of ['a', 'b'].entries()) {
      const ended = await runs[i]!.exited;
      expect(ended.code, ended.stderr).toBe(4);
      expect(ended.stderr).toContain(`chaoskit is halted in the cluster by ${ids.halter!.identity}`);
      const journal = JSON.parse(await readFile(runs[i]!.journalPath, 'utf8')) as Journal;
      expect(journal.interrupted_by).toMatchObject({ by: 'halt', name: 'chaoskit-halt' });
      expect(journal.rollbacks.map((r) => r.status)).toEqual(['succeeded']);
      expect(await replicas(name)).toBe(2);
      took.push(`${name}: ${((Date.parse(journal.rollbacks[0]!.start) - at) / 1000).toFixed(2)} s`);
    }
    console.log(`cluster halt set → rollback started: ${took.join(', ')}`);
    const refused = await startRun(dir, 'refused', experiment('a', 0), {
      env: ids.admin!.env,
      args: ['--ledger-namespace', 'team-b'],
    });
    const outcome = await refused.exited;
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(
      /the run does not start: chaoskit is halted in the cluster by \S+ at \S+: incident 7/,
    );
  }, 300_000);

  it('only who may resume lifts it: not a ConfigMap writer, not the runner, not the halter', async () => {
    expect(await lever()).toBeDefined();
    const since = new Date();
    // The writer may delete every ConfigMap: the policy refuses it.
    const writer = await chaoskit('writer', ['resume']);
    expect(writer.code).toBe(1);
    expect(writer.stderr).toContain('only who may resume chaoskit (delete halts.chaoskit.io');
    // The halter may pull the lever, not release it.
    const halter = await chaoskit('halter', ['resume']);
    expect(halter.code).toBe(1);
    expect(halter.stderr).toMatch(/cannot delete resource "configmaps"/);
    const runner = await chaoskit('runner', ['resume']);
    expect(runner.code).toBe(1);
    expect(runner.stderr).toMatch(/forbidden|Forbidden/);
    // Nor may they rewrite who set it, or set a lever of their own in their namespace.
    const rewritten = await chaoskit('writer', ['halt', '--reason', 'mine now']);
    expect(rewritten.code).toBe(1);
    expect(rewritten.stderr).toContain('only who may halt chaoskit (create halts.chaoskit.io');
    const own = await chaoskit('runner', ['halt', '-n', 'team-a', '--reason', 'mine']);
    expect(own.code).toBe(1);
    expect(await lever()).toMatchObject({
      data: { by: ids.halter!.identity, reason: 'incident 7: checkout is down' },
    });
    // A halter may not say someone else set it.
    const forged = await promisify(execFile)(cluster.kubectl, [
      '--kubeconfig',
      join(dir, 'halter.kubeconfig'),
      'create',
      'configmap',
      'chaoskit-halt',
      '-n',
      'team-b',
      '--from-literal=by=the-ceo',
      '--from-literal=reason=x',
    ]).catch((err: { stderr: string }) => err);
    expect((forged as { stderr: string }).stderr).toContain('its data.by must be');
    for (const who of ['writer', 'runner', 'halter'])
      expect(
        (await audited(ids[who]!.identity, since)).filter((l) =>
          /^delete configmaps chaoskit-halt \(2/.test(l),
        ),
      ).toEqual([]);
    const resumed = await chaoskit('resumer', ['resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await lever()).toBeUndefined();
  });
});

describe('bad input', () => {
  it('is refused before any request, without echoing what it refuses', async () => {
    const since = new Date();
    for (const args of [
      ['halt', '-n', '../x'],
      ['resume', '-n', '../x'],
      ['halt', '-n', 'Team_A'],
      ['halt', '--reason', 'x'.repeat(120_000)],
      ['halt', '--reason', 'red \u001b[31malert\u001b[0m'],
      ['halt', '--reason', 'two\nlines'],
    ]) {
      const out = await chaoskit('admin', args);
      expect(out.code, args.join(' ').slice(0, 40)).toBe(2);
      expect(out.stderr).not.toContain('\u001b');
      expect(out.stderr.length).toBeLessThan(600);
      expect(out.stderr).toMatch(/-n\/--namespace '\.\.\/x'|-n\/--namespace 'Team_A'|argument --reason/);
    }
    expect(await audited(ids.admin!.identity, since)).toEqual([]);
  });
});
