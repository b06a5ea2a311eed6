// Test-only (left out of the build): a local cluster of its own with one real node, and the
// runner image (`chaoskit image build` of the built runner, as `npm run image` builds it) imported
// into it. Both take minutes: the image is built once
// for every test file that wants it — under a lock, as files run at once and the build stages
// in one directory — and built again only when what goes into it changed (its archive is kept
// in chaoskit's cache under the digest of what it holds).
// `local.realNodes` is empty where this machine cannot run real nodes (the reason in
// `realNodesUnavailable`); the image is then not built.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, type LocalCluster, start } from '@chaoskit/cluster';
import { isAlive, until } from '@chaoskit/cluster/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_IMAGE } from '../image/reference.js';
import { cli, exec } from '../testing/test-cli.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const lock = join(root, 'build', 'image.lock');

export interface RealNodeCluster {
  local: LocalCluster;
  kc: KubeConfig;
  /** The image's reference, and what its build said (its size). */
  image: string;
  built: string;
}

/**
 * What the image holds, as one digest: Node, the bundled command (which holds the recipe) and the
 * one file's script. The image's archive
 * is kept in chaoskit's cache under it, so that another checkout of the same command (CI's fresh
 * clone) imports the archive built before instead of building it again (about 45 s of buildah).
 */
async function inputDigest(): Promise<string> {
  const hash = createHash('sha256');
  const bundle = join(root, 'packages', 'runner', 'dist', 'bundle');
  const files = (await readdir(bundle, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of [process.execPath, join(root, 'packages/runner/dist/single/chaoskit.cjs'), ...files])
    hash.update(`${relative(root, file)}\0`).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

async function buildOnce(): Promise<{ image: string; archive: string; built: string }> {
  await mkdir(join(root, 'build'), { recursive: true });
  await until(
    'the image build lock',
    async () => {
      try {
        await mkdir(lock);
        await writeFile(join(lock, 'pid'), String(process.pid));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => '0'));
        if (holder && !isAlive(holder)) await rm(lock, { recursive: true, force: true });
        return false;
      }
    },
    { timeoutMs: 1_800_000, intervalMs: 1000 },
  );
  try {
    const digest = await inputDigest();
    const cached = join(cacheDir(), 'images', `runner-${digest}.json`);
    const previous = JSON.parse(await readFile(cached, 'utf8').catch(() => '{}'));
    if (existsSync(previous.archive ?? '')) {
      const now = new Date();
      await utimes(previous.archive, now, now);
      return { ...previous, built: `${previous.built} (cached)` };
    }
    // Into the cache by rename: two checkouts building at once each leave a whole archive.
    const archive = join(cacheDir(), 'images', `runner-${digest}.tar`);
    await mkdir(dirname(archive), { recursive: true });
    const run = await exec(
      process.execPath,
      [cli, 'image', 'build', '--output', `${archive}.${process.pid}`],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (run.code !== 0) throw new Error(`chaoskit image build failed: ${run.stderr.slice(-4000)}`);
    await rename(`${archive}.${process.pid}`, archive);
    const result = { image: DEFAULT_IMAGE, archive, built: run.stdout.trim().split('\n')[0] ?? '' };
    await writeFile(`${cached}.${process.pid}`, JSON.stringify(result));
    await rename(`${cached}.${process.pid}`, cached);
    // Each change to the command makes a new archive (45 MiB): those no run used for a week go.
    for (const name of await readdir(dirname(archive))) {
      const at = join(dirname(archive), name);
      if (name.endsWith('.tar') && Date.now() - (await stat(at)).mtimeMs > 7 * 86_400_000)
        await rm(at, { force: true });
    }
    return result;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export async function clusterWithImage(): Promise<RealNodeCluster> {
  const local = await start({ provider: 'local', nodes: 1, realNodes: 1, mesh: false });
  const kc = new KubeConfig();
  kc.loadFromString(local.kubeconfig);
  if (local.realNodes.length === 0) return { local, kc, image: '', built: '' };
  const { image, archive, built } = await buildOnce();
  await local.importImage(archive);
  return { local, kc, image, built };
}
