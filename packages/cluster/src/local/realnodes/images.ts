import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureImagePrograms } from '../../host/binaries.js';
import { cacheDir, type ProgressSink, withCacheLock } from '../../host/cache.js';
import type { NodeImages } from '../../types.js';
import { run } from './run.js';

// The real nodes' images, built here `FROM scratch` with buildah (there is no registry to pull
// from) into OCI archives in the cache, named after a hash of what they hold, and imported into
// each node's containerd. Pods name them with imagePullPolicy IfNotPresent.

export const BUSYBOX = '/bin/busybox';

interface ImageSpec {
  name: keyof NodeImages;
  /** Files copied in: [source on this machine, path in the image]. */
  files: Array<[string, string]>;
  /** Symlinks: [path in the image, target]. */
  links?: Array<[string, string]>;
  config: string[];
}

async function specs(progress: ProgressSink): Promise<ImageSpec[]> {
  const programs = await ensureImagePrograms(progress);
  const applets = (await run(BUSYBOX, ['--list'])).split('\n').filter((a) => a && a !== 'busybox');
  return [
    { name: 'pause', files: [[programs.pause, '/pause']], config: ['--entrypoint', '["/pause"]'] },
    {
      name: 'toolbox',
      files: [[BUSYBOX, '/bin/busybox']],
      links: applets.map((a) => [`/bin/${a}`, 'busybox']),
      config: ['--cmd', '["/bin/sh"]', '--env', 'PATH=/bin'],
    },
    {
      name: 'webapp',
      files: [[programs.webapp, '/webapp']],
      config: ['--entrypoint', '["/webapp"]', '--cmd', '["serve"]', '--port', '8080', '--port', '9090'],
    },
  ];
}

async function tagOf(spec: ImageSpec): Promise<string> {
  const hash = createHash('sha256');
  for (const [source, path] of spec.files) hash.update(path).update(await readFile(source));
  for (const [path, target] of spec.links ?? []) hash.update(path).update(target);
  hash.update(spec.config.join('\0'));
  return hash.digest('hex').slice(0, 12);
}

/** Builds one image into an OCI archive with buildah, in a throwaway storage of its own. */
async function build(spec: ImageSpec, ref: string, archive: string): Promise<void> {
  const scratch = await mkdtemp(join(cacheDir(), 'images', '.build-'));
  const buildah = (...args: string[]) =>
    run('buildah', [
      '--root',
      `${scratch}/root`,
      '--runroot',
      `${scratch}/run`,
      '--storage-driver',
      'vfs',
      ...args,
    ]);
  try {
    const container = (await buildah('from', '--quiet', 'scratch')).trim();
    const root = (await buildah('mount', container)).trim();
    for (const [source, path] of spec.files) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await copyFile(source, join(root, path));
      await chmod(join(root, path), 0o755);
    }
    for (const [path, target] of spec.links ?? []) await symlink(target, join(root, path));
    await mkdir(join(root, 'tmp'), { mode: 0o1777 });
    await chmod(join(root, 'tmp'), 0o1777);
    await buildah('config', ...spec.config, container);
    await buildah('commit', '--quiet', container, ref);
    await buildah('push', '--quiet', ref, `oci-archive:${archive}.tmp:${ref}`);
    await rename(`${archive}.tmp`, archive);
  } finally {
    await buildah('rm', '--all').catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The images' references and archives, built into the cache first when missing. */
export async function ensureImages(
  progress: ProgressSink,
): Promise<{ refs: NodeImages; archives: string[] }> {
  const dir = join(cacheDir(), 'images');
  await mkdir(dir, { recursive: true });
  const refs = {} as NodeImages;
  const archives: string[] = [];
  for (const spec of await specs(progress)) {
    const tag = await tagOf(spec);
    const ref = `chaoskit.local/${spec.name}:${tag}`;
    const archive = join(dir, `${spec.name}-${tag}.tar`);
    if (!existsSync(archive)) {
      await withCacheLock(async () => {
        if (existsSync(archive)) return;
        const started = Date.now();
        await build(spec, ref, archive);
        progress(
          `chaoskit: built the ${spec.name} image (${ref}) with buildah in ${((Date.now() - started) / 1000).toFixed(1)}s`,
        );
      }, progress);
    }
    refs[spec.name] = ref;
    archives.push(archive);
  }
  return { refs, archives };
}
