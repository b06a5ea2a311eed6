import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMutation, readAuditLog } from '@chaoskit/cluster';
import { kubeconfigYaml, serviceAccountToken, sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_LABEL } from '../case-context.js';
import { loadCases } from '../cases/index.js';
import { KIT_RIGHTS } from './access.js';
import { KIT_CLI, onKubeconfig, runKit } from './test-kit-command.js';

const cases = await loadCases();

const shared = sharedCluster();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-kit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const onShared = () => onKubeconfig(shared);
const kit = (args: string[]) => runKit(dir, args);

/** Everything still in the shared cluster with the given label selector (namespaces being deleted included). */
async function labelled(labelSelector: string): Promise<string[]> {
  const core = shared.kc.makeApiClient(CoreV1Api);
  const rbac = shared.kc.makeApiClient(RbacAuthorizationV1Api);
  return [
    ...(await core.listNamespace({ labelSelector })).items.map((n) => `namespace/${n.metadata?.name}`),
    ...(await rbac.listClusterRole({ labelSelector })).items.map((n) => `clusterrole/${n.metadata?.name}`),
    ...(await rbac.listClusterRoleBinding({ labelSelector })).items.map(
      (n) => `clusterrolebinding/${n.metadata?.name}`,
    ),
    ...(await core.listNode({ labelSelector })).items.map((n) => `node/${n.metadata?.name}`),
  ];
}

/**
 * A JUnit report's counts, checked to agree with its testcases (every suite's and the root's):
 * the root's counts, as CI reads them.
 */
function junitCounts(xml: string): { tests: number; failures: number; skipped: number } {
  const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
  const attrs = (tag: string) => ({
    tests: Number(/ tests="(\d+)"/.exec(tag)?.[1]),
    failures: Number(/ failures="(\d+)"/.exec(tag)?.[1]),
    skipped: Number(/ skipped="(\d+)"/.exec(tag)?.[1]),
  });
  const actual = (text: string) => ({
    tests: count(text, /<testcase /g),
    failures: count(text, /<failure /g),
    skipped: count(text, /<skipped /g),
  });
  for (const suite of xml.match(/<testsuite [\s\S]*?<\/testsuite>/g) ?? [])
    expect(attrs(suite.slice(0, suite.indexOf('>'))), suite.slice(0, 200)).toEqual(actual(suite));
  const root = attrs(/<testsuites [^>]*>/.exec(xml)?.[0] ?? '');
  expect(root).toEqual(actual(xml));
  return root;
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the kit on a user's cluster", () => {
  it('refuses to start without --context and --yes', async () => {
    const noContext = await kit(['--provider', 'kubeconfig', '--kubeconfig', shared.kubeconfigPath, '--yes']);
    expect(noContext.code).toBe(2);
    expect(noContext.stderr).toMatch(/needs both --context NAME .* and --yes/);
    const noYes = await kit([
      '--provider',
      'kubeconfig',
      '--kubeconfig',
      shared.kubeconfigPath,
      '--context',
      shared.context,
    ]);
    expect(noYes.code).toBe(2);
  });

  it('runs the probes only with --read-only, writes the reports, and leaves nothing behind', async () => {
    const report = join(dir, 'read-only');
    const run = await kit([...onShared(), '--read-only', '--only', 'deployment', '--report', report]);
    expect(run.code, run.stderr).toBe(0);
    const md = await readFile(join(report, 'conformance.md'), 'utf8');
    const probes = cases.filter(
      (c) => c.activity.kind === 'probe' && c.activity.module.startsWith('chaoscluster.deployment'),
    ).length;
    expect(md).toContain(`**${probes} of ${probes} activities passed**`);
    expect(md).toMatch(/Kubernetes v1\.33/);
    expect(md).not.toMatch(/scale_deployment/);
    const junit = await readFile(join(report, 'conformance.junit.xml'), 'utf8');
    const scenarios = cases
      .filter((c) => c.activity.kind === 'probe' && c.activity.module.startsWith('chaoscluster.deployment'))
      .reduce((n, c) => n + c.scenarios.length, 0);
    expect(junitCounts(junit)).toMatchObject({ tests: scenarios, failures: 0 });
  });

  it('skips, with the reason, the scenarios that need the audit log, and exits 0', async () => {
    const report = join(dir, 'no-audit');
    const run = await kit([
      ...onShared(),
      '--allow-nodes',
      '--only',
      'cordon_node,chaoscluster.node.actions.uncordon_node',
      '--report',
      report,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const reason = "needs the apiserver's audit log, which the kubeconfig provider cannot read";
    expect(run.stderr).toContain('skipped on provider kubeconfig, and why:');
    expect(run.stderr).toContain(reason);
    expect(run.stderr).toMatch(
      /2 of 2 activities passed, 0 failed, 0 skipped \([1-9]\d* scenario\(s\) skipped/,
    );
    const md = await readFile(join(report, 'conformance.md'), 'utf8');
    expect(md).toContain('## Skipped, and why');
    expect(md).toContain(reason);
    const junit = await readFile(join(report, 'conformance.junit.xml'), 'utf8');
    const counts = junitCounts(junit);
    expect(counts.failures).toBe(0);
    expect(counts.skipped).toBeGreaterThan(0);
    expect(junit).toContain(`<skipped message="${reason.replace(/'/g, '&apos;')}"/>`);
    // The reason is said once, however many scenarios it skipped.
    expect(run.stderr.split(reason).length - 1).toBe(1);
  });

  it('runs the concurrent-edit scenario through a TLS proxy it trusts (no warning), and says the --mesh-xds hint once', async () => {
    const report = join(dir, 'mesh-crds');
    const run = await kit([
      ...onShared(),
      '--only',
      'add_abort_fault,remove_abort_fault',
      '--report',
      report,
    ]);
    process.stdout.write(`\n$ chaoskit-conformance --only add_abort_fault,remove_abort_fault\n${run.stderr}`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/TLS verification/);
    expect(run.stderr).toMatch(
      /2 of 2 activities passed, 0 failed, 0 skipped \([1-9]\d* scenario\(s\) skipped/,
    );
    expect(run.stderr.split('--mesh-xds').length - 1).toBe(1);
    const junit = await readFile(join(report, 'conformance.junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase [^>]*name="a concurrent edit between the read and the write[^"]*" time="[\d.]+"><\/testcase>/,
    );
    const md = await readFile(join(report, 'conformance.md'), 'utf8');
    expect(md.split('--mesh-xds').length - 1).toBe(1);
    junitCounts(junit);
  });

  it('tells an identity that is not an admin which rights the kit needs and how to grant them, before creating anything', async () => {
    const home = `kit-editor-${process.pid}`;
    const core = shared.kc.makeApiClient(CoreV1Api);
    const rbac = shared.kc.makeApiClient(RbacAuthorizationV1Api);
    await core.createNamespace({ body: { metadata: { name: home } } });
    try {
      const { token, identity } = await serviceAccountToken(shared.kc, home, 'editor', [
        { role: 'edit', clusterBinding: home },
      ]);
      const kubeconfig = join(dir, 'editor.kubeconfig');
      await writeFile(
        kubeconfig,
        kubeconfigYaml(shared.credentials, { editor: { token } }, { editor: 'editor' }, 'editor'),
      );
      const since = new Date();
      const run = await kit([
        '--provider',
        'kubeconfig',
        '--kubeconfig',
        kubeconfig,
        '--context',
        'editor',
        '--yes',
        '--only',
        'terminate_pods',
        '--report',
        join(dir, 'editor'),
      ]);
      process.stdout.write(`\n$ chaoskit-conformance --context editor (bound to edit)\n${run.stderr}`);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /the kit needs rights this identity does not have on the cluster: .*create namespaces/,
      );
      expect(run.stderr).toContain('escalate clusterroles.rbac.authorization.k8s.io');
      expect(run.stderr).toContain(
        'kubectl create clusterrolebinding chaoskit-conformance --clusterrole=cluster-admin',
      );
      expect(run.stderr).not.toMatch(/Unknown API Status Code|Headers:/);
      // It asked the cluster what it may do (once the audit log shows every question), and
      // wrote nothing.
      let events: Awaited<ReturnType<typeof readAuditLog>> = [];
      const asked = () => events.filter((e) => e.objectRef?.resource === 'selfsubjectaccessreviews');
      await until(async () => {
        events = await readAuditLog(shared.auditLogPath, { user: identity, since });
        return asked().length >= KIT_RIGHTS.length ? true : undefined;
      }, 60_000);
      expect(asked()).toHaveLength(KIT_RIGHTS.length);
      expect(events.filter(isMutation)).toEqual([]);
    } finally {
      await rbac.deleteClusterRoleBinding({ name: home }).catch(() => undefined);
      await core.deleteNamespace({ name: home });
    }
  });
});

describe('interrupting the kit', () => {
  it('removes every namespace, role and node it created when it receives SIGINT', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [KIT_CLI, ...onShared(), '--only', 'node,pod', '--report', join(dir, 'interrupted')],
      { cwd: dir },
    );
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    // Wait until the kit has objects in the cluster; its run label tells them from the objects
    // of other tests running cases on the same cluster.
    const runId = await until(async () => {
      const roles = await shared.kc
        .makeApiClient(RbacAuthorizationV1Api)
        .listClusterRole({ labelSelector: RUN_LABEL });
      return roles.items[0]?.metadata?.labels?.[RUN_LABEL];
    }, 60_000);
    expect(runId, stderr).toBeDefined();
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: removing everything the kit created/);
    // Namespaces take a moment to finish terminating.
    const left = await until(async () => {
      const l = await labelled(`${RUN_LABEL}=${runId}`);
      return l.length === 0 ? l : undefined;
    }, 120_000);
    expect(left ?? (await labelled(`${RUN_LABEL}=${runId}`))).toEqual([]);
  }, 240_000);
});

describe('the k3s provider', () => {
  it('is skipped with the reason printed when there is no container engine', async () => {
    const run = await kit(['--provider', 'k3s', '--only', 'pod']);
    if (!/skipped/.test(run.stderr)) return; // a machine with a container engine runs it for real
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/k3s provider skipped: no container engine reachable/);
  });
});
