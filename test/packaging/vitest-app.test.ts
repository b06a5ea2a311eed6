// @chaoskit/vitest as a user gets it: the example project (examples/vitest-app) copied outside
// the repository, the package installed there from the tarballs (with vitest and TypeScript
// from npm's registry), type-checked, and its tests run — the four that pass on the local
// cluster its global setup starts (with istiod, for the mesh test), and the one that fails on
// purpose on a cluster this file set up, which must be left exactly as it was.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCluster, start } from '@chaoskit/cluster';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseTarballs, runAsync } from './release.js';
import { repoRoot, workspacePackages } from './repo.js';

let scratch: string;
let project: string;
let clusterStarting: Promise<LocalCluster> | undefined;

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  // Plain text, for the counts matched below.
  const out = await runAsync(command, args, { cwd: project, env: { NO_COLOR: '1', ...env } });
  show(`${command} ${args.join(' ')}`, out);
  return out;
}

function show(step: string, out: { code: number; stdout: string; stderr: string }) {
  const tail = (text: string) => text.trim().split('\n').slice(-25).join('\n');
  process.stdout.write(`\n$ ${step}\nexit ${out.code}\n${tail(out.stdout)}\n${tail(out.stderr)}\n`);
}

/** @chaoskit/vitest and the chaoskit packages it depends on, directly or not. */
function packagesOfVitest(): string[] {
  const manifests = new Map(workspacePackages().map((p) => [p.manifest.name, p.manifest]));
  const wanted = new Set<string>();
  const visit = (name: string) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const dep of Object.keys(manifests.get(name)?.dependencies ?? {}))
      if (dep.startsWith('@chaoskit/')) visit(dep);
  };
  visit('@chaoskit/vitest');
  return [...wanted];
}

const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'chaoskit-vitest-app-'));
  // The cluster of the test that fails on purpose starts while npm installs (neither waits on
  // the other, nor has a deadline to meet).
  clusterStarting = start({ provider: 'local', nodes: 1 });
  clusterStarting.catch(() => undefined); // awaited (and reported) by that test
  const release = await releaseTarballs();
  project = join(scratch, 'vitest-app');
  cpSync(join(repoRoot, 'examples', 'vitest-app'), project, { recursive: true });
  // The example names the published version; here the tarballs stand for it.
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  delete manifest.devDependencies['@chaoskit/vitest'];
  writeFileSync(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
  const args = [
    'install',
    '--save-dev',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...packagesOfVitest().map((name) => release.tarball(name)),
    `vitest@${versionOf('vitest')}`,
    `typescript@${versionOf('typescript')}`,
  ];
  const install = await runAsync('npm', args, { cwd: project });
  show(`npm ${args.join(' ')}`, install);
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
}, 900_000);

afterAll(async () => {
  await (await clusterStarting?.catch(() => undefined))?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the example project, with @chaoskit/vitest installed from its tarball outside the repository', () => {
  it('type-checks under a strict compiler', async () => {
    expect(project.startsWith(repoRoot)).toBe(false);
    const tsc = await run('npx', ['--no-install', 'tsc', '-p', 'tsconfig.json']);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  }, 300_000);

  // The two runs at the same time, on clusters of their own: the second's cluster is up already
  // (beforeAll), and one test is little beside the first run's cluster start.
  it.concurrent('passes its four tests on the local cluster its global setup starts, with istiod', async ({
    expect,
  }) => {
    const out = await run('npx', ['--no-install', 'vitest', 'run', '--project', 'app'], {
      CHAOSKIT_MESH: 'istiod',
    });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toMatch(/Tests\s+4 passed \(4\)/);
    expect(out.stdout).not.toMatch(/skipped/);
  }, 1_800_000);

  it.concurrent('fails its test that fails on purpose, and leaves the cluster exactly as it was', async ({
    expect,
  }) => {
    const cluster = await clusterStarting!;
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const objects = kc.makeApiClient(CustomObjectsApi);
    const reviews = {
      group: 'networking.istio.io',
      version: 'v1',
      plural: 'virtualservices',
      namespace: 'shop',
    };
    await core.createNamespace({ body: { metadata: { name: 'shop' } } });
    await objects.createNamespacedCustomObject({
      ...reviews,
      body: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'reviews', labels: { app: 'reviews' } },
        spec: { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews', subset: 'v1' } }] }] },
      },
    });
    // Everything the test could touch or leave: the VirtualServices of `shop` as they are, and
    // the records of changes (ConfigMaps) of every namespace. (The ledger key, a Secret made
    // once in the record's namespace, stays, as after any chaoskit run.)
    const snapshot = async () => ({
      virtualServices: (
        (await objects.listNamespacedCustomObject(reviews)) as {
          items: Array<{
            metadata: { name: string; labels?: unknown; annotations?: unknown };
            spec: unknown;
          }>;
        }
      ).items.map((vs) => ({
        name: vs.metadata.name,
        labels: vs.metadata.labels,
        annotations: vs.metadata.annotations,
        spec: vs.spec,
      })),
      records: (
        await core.listConfigMapForAllNamespaces({ labelSelector: 'chaoskit.io/ledger=true' })
      ).items.map((m) => `${m.metadata?.namespace}/${m.metadata?.name}`),
    });
    const before = await snapshot();
    expect(before.virtualServices).toHaveLength(1);
    expect(before.records).toEqual([]);

    const out = await run('npx', ['--no-install', 'vitest', 'run', '--project', 'fails-on-purpose'], {
      CHAOSKIT_CONTEXT: cluster.context,
      KUBECONFIG: cluster.kubeconfigPath,
    });
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/Tests\s+1 failed \(1\)/);
    expect(out.stdout + out.stderr).toContain('an assertion fails while an abort is in place');
    expect(out.stdout + out.stderr).not.toContain('left faults in place');
    expect(await snapshot()).toEqual(before);
  }, 900_000);
});
