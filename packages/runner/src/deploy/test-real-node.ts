// Test-only (left out of the build): a local cluster of its own with one real node, and the
// runner image (`npm run image`) imported into it. Both take minutes: the image is built once
// for every test file that wants it — under a lock, as files run at once and the build stages
// in one directory — and built again only when what goes into it changed since.
// `local.realNodes` is empty where this machine cannot run real nodes (the reason in
// `realNodesUnavailable`); the image is then not built.

import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalCluster, start } from '@chaoskit/cluster';
import { isAlive, until } from '@chaoskit/cluster/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { exec } from '../test-cli.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const lock = join(root, 'build', 'image.lock');
const made = join(root, 'build', 'image.json');

export interface RealNodeCluster {
  local: LocalCluster;
  kc: KubeConfig;
  /** The image's reference, and `npm run image`'s last line (its size). */
  image: string;
  built: string;
}

/** The newest modification among what the image holds: the bundled command, Node, the recipe. */
async function newestInput(): Promise<number> {
  const bundle = join(root, 'packages', 'runner', 'dist', 'bundle');
  const files = [process.execPath, join(root, 'Containerfile'), join(root, 'scripts/image.mjs')];
  for (const e of await readdir(bundle, { recursive: true, withFileTypes: true }))
    if (e.isFile()) files.push(join(e.parentPath, e.name));
  let newest = 0;
  for (const file of files) newest = Math.max(newest, (await stat(file)).mtimeMs);
  return newest;
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
    const newest = await newestInput();
    const previous = JSON.parse(await readFile(made, 'utf8').catch(() => '{}'));
    if (previous.newest >= newest && existsSync(previous.archive ?? '')) return previous;
    const run = await exec(process.execPath, [join(root, 'scripts/image.mjs')], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.code !== 0) throw new Error(`npm run image failed: ${run.stderr.slice(-4000)}`);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    const result = {
      image: out.image,
      archive: out.archive,
      built: run.stderr.trim().split('\n').at(-1) ?? '',
    };
    await writeFile(made, JSON.stringify({ ...result, newest }));
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
