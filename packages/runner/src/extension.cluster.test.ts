// An extension as users get one: examples/extension and the runner packed with `npm pack`,
// installed from their tarballs outside the repository, then `chaoskit discover` and
// `chaoskit run` of the extension's experiment on the cluster. Once in a project (the runner and
// the extension side by side), once with the runner installed globally and the extension in the
// experiment's directory only.
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import type { Journal } from './run/index.js';
import { exec as execOutcome, type Outcome as Run } from './testing/test-cli.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const extensionDir = join(repo, 'examples', 'extension');
// npm from PATH, as users run it.
const npm = 'npm';
const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);

const exec = (file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> =>
  execOutcome(file, args, {
    cwd,
    env: { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });

async function npmOk(args: string[], cwd: string): Promise<string> {
  const run = await exec(npm, [...args, '--no-audit', '--no-fund', '--prefer-offline'], cwd);
  if (run.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

let work: string;
const tarballs: Record<string, string> = {};
let ns: string;
let removeNamespace: () => Promise<void>;

beforeAll(async () => {
  // Outside the repository: nothing above it may resolve a package for it.
  work = await mkdtemp(join(tmpdir(), 'chaoskit-extension-'));
  const packs = await mkdir(join(work, 'tarballs'), { recursive: true }).then(() => join(work, 'tarballs'));
  const packed = JSON.parse(
    await npmOk(
      [
        'pack',
        '--json',
        '--pack-destination',
        packs,
        '--workspace',
        '@chaoskit/core',
        '--workspace',
        '@chaoskit/runner',
      ],
      repo,
    ),
  ) as Array<{ name: string; filename: string }>;
  const extension = JSON.parse(
    await npmOk(['pack', '--json', '--pack-destination', packs, extensionDir], repo),
  ) as Array<{
    name: string;
    filename: string;
  }>;
  for (const p of [...packed, ...extension]) tarballs[p.name] = join(packs, p.filename);
  const namespace = await testNamespace(cluster.kc, 'extension');
  ns = namespace.name;
  removeNamespace = namespace.remove;
  await core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'settings' }, data: { mode: 'normal', feature: 'on' } },
  });
}, 600_000);

afterAll(async () => {
  await removeNamespace?.();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The experiment of examples/extension, copied to `dir`. */
async function experimentIn(dir: string): Promise<string> {
  await cp(join(extensionDir, 'experiment.yaml'), join(dir, 'experiment.yaml'));
  return join(dir, 'experiment.yaml');
}

async function expectRunChangedTheFeature(run: Run, journalPath: string, value: string) {
  // The example has no rollback: its change is left in place, and the exit code says so (D89).
  expect(run.code, run.stderr).toBe(EXIT.leftInPlace);
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
  expect(journal.left_in_place).toEqual([expect.stringMatching(/^config map 'settings' .*\/data\/feature/)]);
  expect(journal.status).toBe('completed');
  expect(journal.deviated).toBe(false);
  expect(journal.steady_states.before?.steady_state_met).toBe(true);
  expect(journal.run.map((r) => [r.activity.name, r.status, r.output])).toEqual([
    ['turn-the-feature-off', 'succeeded', { name: 'settings', key: 'feature', previous: value }],
    ['the-feature-is-off', 'succeeded', 'off'],
  ]);
  // The cluster says so too.
  const settings = await core.readNamespacedConfigMap({ name: 'settings', namespace: ns });
  expect(settings.data).toEqual({ mode: 'normal', feature: 'off' });
}

describe('an extension installed from its tarball next to the runner', () => {
  it('is discovered and runs', async () => {
    const project = join(work, 'project');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'shop-experiments', private: true }),
    );
    await npmOk(
      [
        'install',
        tarballs['@chaoskit/core']!,
        tarballs['@chaoskit/runner']!,
        tarballs['chaoskit-extension-example']!,
      ],
      project,
    );
    const chaoskit = join(project, 'node_modules', '.bin', 'chaoskit');

    const discover = await exec(chaoskit, ['discover', '--json'], project);
    expect(discover.code, discover.stderr).toBe(0);
    const found = JSON.parse(discover.stdout) as {
      activities: Array<{ module: string; name: string }>;
      packages: Array<{ name: string; modules: string[] }>;
      not_installed: string[];
    };
    expect(found.activities.map((a) => `${a.module}.${a.name}`)).toEqual(
      expect.arrayContaining([
        'example.configmaps.actions.set_config_value',
        'example.configmaps.probes.config_value',
      ]),
    );
    expect(found.packages).toContainEqual({
      name: 'chaoskit-extension-example',
      version: '1.0.0',
      modules: ['example.configmaps.actions', 'example.configmaps.probes'],
    });
    // The bundled command carries chaoskit's own activity packages (D149).
    expect(found.packages.map((p) => p.name)).toContain('@chaoskit/chaoscluster-pod');
    expect(found.not_installed).toEqual([]);
    const text = await exec(chaoskit, ['discover'], project);
    expect(text.stdout).toContain('example.configmaps.actions.set_config_value (action)');
    expect(text.stdout).toContain('extensions: chaoskit-extension-example@1.0.0');
    // `chaoskit info`, as `chaos info extensions`: what is installed, and where.
    const info = await exec(chaoskit, ['info', '--json'], project);
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout).packages).toContainEqual({
      name: 'chaoskit-extension-example',
      version: '1.0.0',
      dir: await realpath(join(project, 'node_modules', 'chaoskit-extension-example')),
      modules: ['example.configmaps.actions', 'example.configmaps.probes'],
      activities: 2,
      aliases: 0,
    });
    expect((await exec(chaoskit, ['info'], project)).stdout).toContain(
      'chaoskit-extension-example@1.0.0: 2 activities in example.configmaps.actions, example.configmaps.probes',
    );

    const experiment = await experimentIn(project);
    const journal = join(project, 'journal.json');
    const run = await exec(chaoskit, ['run', experiment, '--journal-path', journal], project, {
      SHOP_NAMESPACE: ns,
    });
    await expectRunChangedTheFeature(run, journal, 'on');
  }, 600_000);
});

describe('the runner installed globally, the extension in the experiment directory', () => {
  it("finds the extension from the experiment, and carries chaoskit's own packages", async () => {
    const prefix = join(work, 'global');
    await npmOk(
      ['install', '--global', '--prefix', prefix, tarballs['@chaoskit/core']!, tarballs['@chaoskit/runner']!],
      work,
    );
    const chaoskit = join(prefix, 'bin', 'chaoskit');
    const experiments = join(work, 'experiments');
    await mkdir(experiments);
    await writeFile(
      join(experiments, 'package.json'),
      JSON.stringify({ name: 'more-experiments', private: true }),
    );
    await npmOk(
      ['install', tarballs['@chaoskit/core']!, tarballs['chaoskit-extension-example']!],
      experiments,
    );
    // Run from elsewhere: the experiment's directory is where the extension is found.
    const elsewhere = join(work, 'elsewhere');
    await mkdir(elsewhere);

    const names = (out: Run) =>
      (JSON.parse(out.stdout) as { packages: Array<{ name: string }> }).packages.map((p) => p.name);
    const here = await exec(chaoskit, ['discover', '--json'], experiments);
    expect(here.code, here.stderr).toBe(0);
    expect(names(here)).toContain('chaoskit-extension-example');
    const away = await exec(chaoskit, ['discover', '--json'], elsewhere);
    expect(names(away)).not.toContain('chaoskit-extension-example');
    // Built into the bundled command (D149): nothing to install for chaoskit's own modules.
    expect(names(away)).toContain('@chaoskit/chaoscluster-pod');

    await core.replaceNamespacedConfigMap({
      name: 'settings',
      namespace: ns,
      body: { metadata: { name: 'settings' }, data: { mode: 'normal', feature: 'dark' } },
    });
    const experiment = await experimentIn(experiments);
    const journal = join(elsewhere, 'journal.json');
    const run = await exec(chaoskit, ['run', experiment, '--journal-path', journal], elsewhere, {
      SHOP_NAMESPACE: ns,
    });
    await expectRunChangedTheFeature(run, journal, 'dark');
  }, 600_000);
});
