// The bundled command (dist/bundle/, D149): one copy of @chaoskit/core in it, each activity
// package a chunk of its own that the entry does not import, and its activity packages the ones
// it runs even when a copy sits in node_modules next to the experiment (a copy that would bring
// a second core): the activity from its chunk records its change in the ledger from which the
// bundled `chaoskit revert` restores it. The same of the single file (dist/single/chaoskit,
// D157), copied alone into an empty directory, which also loads a user's ES module control.

import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { deploy, fileNamespace, serviceAccountEnv, sharedCluster } from '@chaoskit/cluster/testing';
import { AppsV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { cli, exec, single } from './testing/test-cli.js';
import { activity } from './testing/test-experiments.js';
import { clusterLeverReader } from './testing/test-identities.js';

const bundle = dirname(cli);

/** Each output file of the bundle, and the source modules esbuild wrote in it (its `// path` lines). */
async function modulesByFile(): Promise<Map<string, Set<string>>> {
  const files = (await readdir(bundle, { recursive: true })).filter((f) => f.endsWith('.mjs'));
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    const text = await readFile(join(bundle, file), 'utf8');
    out.set(file, new Set([...text.matchAll(/^\/\/ (\.\.\/\S+\.js)$/gm)].map((m) => m[1]!)));
  }
  return out;
}

describe('the bundle', () => {
  it('holds each module of @chaoskit/core once, in chunks that every activity package shares', async () => {
    const byFile = await modulesByFile();
    const where = new Map<string, string[]>();
    for (const [file, modules] of byFile)
      for (const module of modules) where.set(module, [...(where.get(module) ?? []), file]);
    const core = [...where.keys()].filter((m) => m.startsWith('../core/dist/'));
    expect(core).toEqual(
      expect.arrayContaining(['../core/dist/record/ledger.js', '../core/dist/telemetry/telemetry.js']),
    );
    expect(core.filter((m) => where.get(m)!.length !== 1)).toEqual([]);
    // No activity package carries core: theirs is the bundle's.
    const activityChunks = [...byFile].filter(([, modules]) =>
      [...modules].some((m) => /^\.\.\/chaos(cluster|mesh)-/.test(m)),
    );
    expect(activityChunks.length).toBeGreaterThanOrEqual(10);
    for (const [file, modules] of activityChunks)
      expect(
        [...modules].filter((m) => m.startsWith('../core/')),
        file,
      ).toEqual([]);
  });

  it('loads an activity package only when an experiment names it: its entry imports none', async () => {
    const entry = await readFile(cli, 'utf8');
    // `from ["]`, not `from "`: the imports test reads a quote after `from` as a module's name.
    const statics = [...entry.matchAll(/^import .* from ["](\.\/[^"]+)["];$/gm)].map((m) => m[1]!);
    const byFile = await modulesByFile();
    for (const file of statics)
      expect(
        [...(byFile.get(relative(bundle, join(bundle, file))) ?? [])].filter((m) => /^\.\.\/chaos/.test(m)),
      ).toEqual([]);
  });
});

/** Makes the single file when it is missing or older than its script (dist/single/chaoskit.cjs). */
async function buildSingle(): Promise<void> {
  const script = fileURLToPath(new URL('../scripts/executable.mjs', import.meta.url));
  await promisify(execFile)(process.execPath, [script, '--if-stale']);
}

describe.each([
  { id: 'bundle', name: 'the bundled command' },
  { id: 'single', name: 'the single file' },
])('$name on the cluster', ({ id }) => {
  const cluster = sharedCluster();
  const apps = cluster.kc.makeApiClient(AppsV1Api);
  const ns = fileNamespace(cluster.kc, id);
  let dir: string;
  let admin: Awaited<ReturnType<typeof serviceAccountEnv>>;

  const runCli = (args: string[], options: Parameters<typeof exec>[2]) =>
    id === 'single'
      ? exec(join(dir, 'chaoskit'), args, options)
      : exec(process.execPath, [cli, ...args], options);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `chaoskit-${id}-`));
    // One file, nothing beside it: copied alone into the experiment's directory.
    if (id === 'single') {
      await buildSingle();
      await copyFile(single, join(dir, 'chaoskit'));
    }
    admin = await serviceAccountEnv(cluster, ns.name, 'operator', [
      { role: 'cluster-admin' },
      await clusterLeverReader(cluster.kc),
    ]);
    await deploy(cluster.kc, ns.name, 'web', 2);
    // A copy of chaoscluster-deployment next to the experiment: loading it would fail the run.
    const copy = join(dir, 'node_modules', '@chaoskit', 'chaoscluster-deployment');
    await mkdir(copy, { recursive: true });
    await writeFile(
      join(copy, 'package.json'),
      JSON.stringify({
        name: '@chaoskit/chaoscluster-deployment',
        version: '99.0.0',
        type: 'module',
        exports: './index.js',
        chaoskit: { modules: ['chaoscluster.deployment.actions', 'chaoscluster.deployment.probes'] },
      }),
    );
    await writeFile(join(copy, 'index.js'), "throw new Error('the copy in node_modules was loaded');\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs its own activity package over a copy in node_modules, and reverts from the ledger that package's chunk wrote", async () => {
    await writeFile(
      join(dir, 'grow.yaml'),
      dump({
        title: 'web grows',
        description: 'the bundled command scales a deployment and leaves it for revert',
        method: [
          activity('action', 'grow', 'chaoscluster.deployment.actions', 'scale_deployment', {
            ns: ns.name,
            name: 'web',
            replicas: 4,
          }),
        ],
      }),
    );
    const ledger = ['--ledger-namespace', ns.name];
    const run = await runCli(['run', 'grow.yaml', '--journal-path', 'grow.json', ...ledger], {
      env: admin.env,
      cwd: dir,
    });
    // No rollback: the change is left for revert.
    expect(run.code, run.stderr).toBe(EXIT.leftInPlace);
    expect(run.stderr).not.toContain('the copy in node_modules');
    const read = () => apps.readNamespacedDeployment({ name: 'web', namespace: ns.name });
    expect((await read()).spec?.replicas).toBe(4);
    const runId: string = JSON.parse(await readFile(join(dir, 'grow.json'), 'utf8')).run_id;
    const reverted = await runCli(['revert', runId, ...ledger], { env: admin.env, cwd: dir });
    expect(reverted.code, reverted.stderr).toBe(0);
    expect((await read()).spec?.replicas).toBe(2);
  });

  it("loads the user's control, an ES module beside the experiment", async () => {
    await writeFile(
      join(dir, 'note.mjs'),
      "import { appendFileSync } from 'node:fs';\nexport function after_experiment_control({ arguments: a, state }) { appendFileSync(a.path, `after ${state.status}\\n`); }\n",
    );
    await writeFile(
      join(dir, 'noted.yaml'),
      dump({
        title: 'noted',
        description: 'a control of the user',
        controls: [
          { name: 'note', provider: { type: 'js', module: './note.mjs', arguments: { path: 'noted.txt' } } },
        ],
        method: [{ type: 'probe', name: 'ok', provider: { type: 'process', path: 'true' } }],
      }),
    );
    const run = await runCli(['run', 'noted.yaml', '--journal-path', 'noted.json'], {
      env: admin.env,
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'noted.txt'), 'utf8')).toBe('after completed\n');
  });
});
