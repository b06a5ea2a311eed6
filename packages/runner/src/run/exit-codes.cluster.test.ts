// The exit codes of `chaoskit run` (D89), each from the real command on the local cluster, as
// a CI gate sees them: 0 only when the run completed and nothing it changed is left in place.

import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMutation, readAuditLog } from '@chaoskit/cluster';
import { deploy, fileNamespace, serviceAccountEnv, sharedCluster, until } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../testing/test-cli.js';
import { operatorsKey, printedRoles } from '../testing/test-identities.js';
import { EXIT } from './exit-codes.js';

const cluster = sharedCluster();
const apps = cluster.kc.makeApiClient(AppsV1Api);
const core = cluster.kc.makeApiClient(CoreV1Api);
const rbac = cluster.kc.makeApiClient(RbacAuthorizationV1Api);
const unique = `exit-codes-${process.pid}`;
let dir: string;
const ns = fileNamespace(cluster.kc, 'exit');
/** The run's identity (the rights `chaoskit rbac` prints for the activities used here). */
let operator: { env: NodeJS.ProcessEnv; identity: string };
/** An identity that may read pods but not delete them (the record's rights it has). */
let viewer: { env: NodeJS.ProcessEnv; identity: string };

/** A service account bound, in the test's namespace, to what `chaoskit rbac <activities>` prints. */
async function identityFor(name: string, activities: string[]) {
  const printed = await runCli(['rbac', ...activities, '--name', name], { cwd: dir });
  expect(printed.code, printed.stderr).toBe(0);
  const sa = await serviceAccountEnv(
    cluster,
    ns.name,
    name,
    await printedRoles(cluster.kc, printed.stdout, ns.name),
  );
  return { env: sa.env, identity: sa.identity };
}

const python = (type: 'action' | 'probe', module: string, func: string, args: Record<string, unknown>) => ({
  type,
  name: `${func}-${Object.values(args).join('-')}`,
  provider: { type: 'python', module, func, arguments: args },
});
const scale = (name: string, replicas: number) =>
  python('action', 'chaoscluster.deployment.actions', 'scale_deployment', { ns: ns.name, name, replicas });
/** A probe that holds while `marker` does not exist (a process: its exit code, tolerance 0). */
const noMarker = (marker: string) => ({
  'steady-state-hypothesis': {
    title: `${marker} does not exist`,
    probes: [
      {
        type: 'probe',
        name: 'no-marker',
        tolerance: 0,
        provider: { type: 'process', path: 'sh', arguments: ['-c', `test ! -e ${marker}`] },
      },
    ],
  },
});

async function experiment(name: string, body: Record<string, unknown>): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, dump({ title: name, description: `exit code: ${name}`, ...body }));
  return file;
}

const journalPath = (name: string) => join(dir, `${name}.journal.json`);
const journalOf = async (name: string) => JSON.parse(await readFile(journalPath(name), 'utf8'));

/** `run` of experiment `name`, its journal and record in the test's places. */
const runArgs = (name: string, args: string[]) => [
  'run',
  join(dir, `${name}.yaml`),
  '--journal-path',
  journalPath(name),
  '--ledger-namespace',
  ns.name,
  ...args,
];

async function run(name: string, args: string[] = [], env = operator.env) {
  const out = await runCli(runArgs(name, args), { env, cwd: dir });
  process.stdout.write(`exit-codes: ${name}: ${out.code}\n`);
  return out;
}

/** `chaoskit revert` of a run that left its change in place; it succeeds. */
async function revertRun(runId: string) {
  const reverted = await runCli(['revert', runId, '--ledger-namespace', ns.name], {
    env: operator.env,
    cwd: dir,
  });
  expect(reverted.code, reverted.stderr).toBe(0);
}

const replicas = async (name: string) =>
  (await apps.readNamespacedDeployment({ name, namespace: ns.name })).spec?.replicas;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-exit-'));
  await deploy(cluster.kc, ns.name, 'web', 3);
  await operatorsKey(cluster.kc, ns.name);
  operator = await identityFor('operator', [
    'chaoscluster.deployment.actions.scale_deployment',
    'chaoscluster.pod.actions.terminate_pods',
  ]);
  viewer = await identityFor('viewer', ['chaoscluster.pod.probes.count_pods']);
  // The record's and the halt lever's Roles are in every `chaoskit rbac` of an action: the
  // viewer gets them by hand.
  for (const [namespace, role] of [
    [ns.name, 'operator-ledger'],
    ['kube-system', 'operator-halt'],
  ] as const)
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: namespace === ns.name ? 'viewer-ledger' : `${ns.name}-viewer-halt` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
        subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: ns.name }],
      },
    });
  // delete_nodes may list the nodes, and delete only one that does not exist: were the
  // selector rail to let it through, no node of the shared cluster could go.
  await rbac.createClusterRole({
    body: {
      metadata: { name: unique },
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['delete'], resourceNames: [unique] },
      ],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: unique },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: unique },
      subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace: ns.name }],
    },
  });
});

afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: unique }).catch(() => undefined);
  await rbac.deleteClusterRole({ name: unique }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('chaoskit run exit codes (D89)', () => {
  it('0: the run completed, its steady state held, its rollback undid its change', async () => {
    await experiment('ok', {
      ...noMarker(join(dir, 'never')),
      method: [scale('web', 2)],
      rollbacks: [scale('web', 3)],
    });
    const out = await run('ok');
    expect(out.code, out.stderr).toBe(EXIT.ok);
    const journal = await journalOf('ok');
    expect(journal.status).toBe('completed');
    expect(journal.left_in_place).toBeUndefined();
    expect(await replicas('web')).toBe(3);
  });

  it('1: the steady state deviated after the method (as Chaos Toolkit)', async () => {
    const marker = join(dir, 'deviated');
    await experiment('deviated', {
      ...noMarker(marker),
      method: [
        {
          type: 'action',
          name: 'create-marker',
          provider: { type: 'process', path: 'touch', arguments: [marker] },
        },
      ],
    });
    const out = await run('deviated');
    expect(out.code, out.stderr).toBe(EXIT.deviated);
    expect((await journalOf('deviated')).deviated).toBe(true);
  });

  it('0, then 1 with --fail-on-deviation: the steady state not met before the method, which did not run', async () => {
    const marker = join(dir, 'before');
    await writeFile(marker, '');
    await experiment('before', { ...noMarker(marker), method: [scale('web', 1)] });
    const chaos = await run('before');
    expect(chaos.code, chaos.stderr).toBe(EXIT.ok);
    expect(chaos.stderr).toContain(
      'The steady state was not met before the method, so the method did not run: exit code 0 as with Chaos Toolkit, unless something else failed (--fail-on-deviation makes it 1)',
    );
    const gate = await run('before', ['--fail-on-deviation']);
    expect(gate.code, gate.stderr).toBe(EXIT.deviated);
    const journal = await journalOf('before');
    expect(journal.steady_states.before.steady_state_met).toBe(false);
    expect(journal.run).toEqual([]);
    expect(await replicas('web')).toBe(3);
  });

  it('2: a command line that cannot be parsed', async () => {
    await experiment('usage', { method: [scale('web', 2)] });
    const out = await run('usage', ['--no-such-option']);
    expect(out.code).toBe(EXIT.usage);
    expect(out.stderr).toContain("unknown option '--no-such-option'");
    expect(existsSync(journalPath('usage'))).toBe(false);
  });

  it('3: refused before any change: an invalid experiment; an identity lacking a right an activity declares (D124)', async () => {
    await experiment('invalid', { method: [{ ...scale('web', 2), provider: { type: 'python' } }] });
    const invalid = await run('invalid');
    expect(invalid.code, invalid.stderr).toBe(EXIT.refused);
    expect(existsSync(journalPath('invalid'))).toBe(false);

    // The viewer may list pods, not delete them: asked before the run, not met mid-run.
    await experiment('forbidden', {
      ...noMarker(join(dir, 'never')),
      method: [
        python('action', 'chaoscluster.pod.actions', 'terminate_pods', {
          ns: ns.name,
          label_selector: 'app=web',
        }),
      ],
    });
    const forbidden = await run('forbidden', [], viewer.env);
    expect(forbidden.code, forbidden.stderr).toBe(EXIT.refused);
    expect(forbidden.stderr).toContain(
      `User "${viewer.identity}" may not delete pods, get pods in namespace '${ns.name}'`,
    );
    expect(existsSync(journalPath('forbidden'))).toBe(false);

    // delete_nodes without a selector, for an identity that may delete one node (that does not
    // exist) by name and list no pod: the grant by name is the server's to judge, the missing
    // list is refused, and no node goes. (The rail refusing it when the rights are there, D92:
    // rails.cluster.test.ts.)
    // The cluster's own nodes: other files' nodes come and go meanwhile (a loaded CI run saw one
    // of them deleted between the two lists).
    const ownNodes = async () =>
      (await core.listNode()).items
        .filter((n) => cluster.nodes.includes(n.metadata!.name!))
        .map((n) => n.metadata!.uid);
    const nodesBefore = await ownNodes();
    expect(nodesBefore).toHaveLength(cluster.nodes.length);
    await experiment('unselected', {
      method: [python('action', 'chaoscluster.node.actions', 'delete_nodes', {}), scale('web', 2)],
    });
    const since = new Date();
    const out = await run('unselected');
    expect(out.code, out.stderr).toBe(EXIT.refused);
    expect(out.stderr).toContain(
      `User "${operator.identity}" may not list pods cluster-wide (activity 'delete_nodes-')`,
    );
    expect(existsSync(journalPath('unselected'))).toBe(false);
    const requests = await readAuditLog(cluster.auditLogPath, { user: operator.identity, since });
    expect(requests.filter((e) => e.objectRef?.resource === 'nodes')).toEqual([]);
    expect(requests.filter(isMutation)).toEqual([]);
    // Every node of the cluster's own is still there, the same object.
    expect(await ownNodes()).toEqual(nodesBefore);
    expect(await replicas('web')).toBe(3);
  });

  it('4: an action failed (its deployment is not there), although the steady state held', async () => {
    await experiment('failed', { ...noMarker(join(dir, 'never')), method: [scale('no-such-deployment', 2)] });
    const out = await run('failed');
    expect(out.code, out.stderr).toBe(EXIT.failed);
    const journal = await journalOf('failed');
    expect(journal.status).toBe('completed');
    expect(journal.deviated).toBe(false);
    expect(journal.run[0].status).toBe('failed');
    expect(journal.run[0].exception.join('')).toContain('no-such-deployment');
  });

  it('5: a change left in place (no rollback), and a rollback that failed', async () => {
    await experiment('left', { method: [scale('web', 1)] });
    const left = await run('left');
    expect(left.code, left.stderr).toBe(EXIT.leftInPlace);
    const journal = await journalOf('left');
    expect(journal.status).toBe('completed');
    expect(journal.left_in_place).toEqual([expect.stringMatching(/^deployment 'web'/)]);
    await revertRun(journal.run_id);
    expect(await replicas('web')).toBe(3);

    await experiment('rollback-failed', {
      method: [scale('web', 2)],
      rollbacks: [scale('no-such-deployment', 3), scale('web', 3)],
    });
    const failed = await run('rollback-failed');
    expect(failed.code, failed.stderr).toBe(EXIT.leftInPlace);
    const second = await journalOf('rollback-failed');
    expect(second.rollbacks.map((r: { status: string }) => r.status)).toEqual(['failed', 'succeeded']);
    expect(second.left_in_place).toBeUndefined();
    expect(await replicas('web')).toBe(3);
  });

  it.each([
    ['SIGINT', EXIT.sigint],
    ['SIGTERM', EXIT.sigterm],
  ] as const)('%s: interrupted, its rollback undid its change', async (signal, code) => {
    const name = `interrupted-${signal}`;
    await experiment(name, {
      method: [{ ...scale('web', 2), pauses: { after: 120 } }],
      rollbacks: [scale('web', 3)],
    });
    const out = await interruptedRun(name, signal);
    expect(out.code, out.stderr).toBe(code);
    expect((await journalOf(name)).status).toBe('interrupted');
    expect(await replicas('web')).toBe(3);
  });

  it('5 wins over 143: interrupted by SIGTERM with its change left in place (--rollback-strategy never)', async () => {
    const name = 'interrupted-left';
    await experiment(name, {
      method: [{ ...scale('web', 1), pauses: { after: 120 } }],
      rollbacks: [scale('web', 3)],
    });
    const out = await interruptedRun(name, 'SIGTERM', ['--rollback-strategy', 'never']);
    expect(out.code, out.stderr).toBe(EXIT.leftInPlace);
    const journal = await journalOf(name);
    expect(journal.status).toBe('interrupted');
    expect(journal.left_in_place).toEqual([expect.stringMatching(/^deployment 'web'/)]);
    await revertRun(journal.run_id);
    expect(await replicas('web')).toBe(3);
  });
});

/** Runs experiment `name` until its first action is done, then sends `signal`. */
async function interruptedRun(name: string, signal: NodeJS.Signals, args: string[] = []) {
  const child: ChildProcess = spawnCli(runArgs(name, args), {
    env: operator.env,
    cwd: dir,
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  // The journal is written as the run goes: once the action is in it, the pause is under way.
  await until(
    `the first action of ${name} done`,
    async () =>
      JSON.parse(await readFile(journalPath(name), 'utf8')).run?.[0]?.status === 'succeeded' || undefined,
    60_000,
  );
  child.kill(signal);
  const code = await exited;
  process.stdout.write(`exit-codes: ${name}: ${code}\n`);
  return { code, stderr };
}
