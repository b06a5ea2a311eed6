import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_LABEL } from '../case-context.js';
import { loadCases } from '../cases/index.js';

const cases = await loadCases();

// The kit's command as users run it (built by `./dev test` before the tests).
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const shared = sharedCluster();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-kit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function kit(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: dir, maxBuffer: 1 << 24 }, (err, _stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

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
    const run = await kit([
      '--provider',
      'kubeconfig',
      '--kubeconfig',
      shared.kubeconfigPath,
      '--context',
      shared.context,
      '--yes',
      '--read-only',
      '--only',
      'deployment',
      '--report',
      report,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const md = await readFile(join(report, 'conformance.md'), 'utf8');
    const probes = cases.filter(
      (c) => c.activity.kind === 'probe' && c.activity.module.startsWith('chaoscluster.deployment'),
    ).length;
    expect(md).toContain(`**${probes} of ${probes} activities passed**`);
    expect(md).toMatch(/Kubernetes v1\.33/);
    expect(md).not.toMatch(/scale_deployment/);
    const junit = await readFile(join(report, 'conformance.junit.xml'), 'utf8');
    expect(junit).toMatch(new RegExp(`<testsuites [^>]*tests="${probes}" failures="0"`));
  });

  it('skips, with the reason, the scenarios that need the audit log, and exits 0', async () => {
    const report = join(dir, 'no-audit');
    const run = await kit([
      '--provider',
      'kubeconfig',
      '--kubeconfig',
      shared.kubeconfigPath,
      '--context',
      shared.context,
      '--yes',
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
    expect(junit).toMatch(/<testsuites [^>]*tests="2" failures="0"/);
    expect(junit).toContain(`<skipped message="${reason.replace(/'/g, '&apos;')}"/>`);
  });
});

describe('interrupting the kit', () => {
  it('removes every namespace, role and node it created when it receives SIGINT', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [
        cli,
        '--provider',
        'kubeconfig',
        '--kubeconfig',
        shared.kubeconfigPath,
        '--context',
        shared.context,
        '--yes',
        '--only',
        'node,pod',
        '--report',
        join(dir, 'interrupted'),
      ],
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
