#!/usr/bin/env node
// `npm run image`: the runner image (the Containerfile at the repository's root), built with
// whichever engine this machine has (buildah, podman, or docker with its daemon), tagged
// chaoskit.local/runner:<the runner's version>, and saved as an OCI archive that a cluster
// without a registry imports (the local cluster's `importImage`). Its context is staged in
// build/image/: the single-file command (packages/runner/dist/single/chaoskit: Node with the
// runner, core and every activity package inside it, D157) in /usr/local/bin, and the shared
// libraries Node loads, for an image FROM scratch (D111, D150).
//
// Usage: npm run image [-- --engine buildah|podman|docker] [-- --context-only]
// (--context-only stages build/image/ and stops: for an engine on another machine.)
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const stage = join(root, 'build', 'image');
const rootfs = join(stage, 'rootfs');
const bundle = join(root, 'packages/runner/dist/bundle');
const single = join(root, 'packages/runner/dist/single/chaoskit');
const version = JSON.parse(readFileSync(join(root, 'packages/runner/package.json'), 'utf8')).version;
export const IMAGE = `chaoskit.local/runner:${version}`;
const archive = join(stage, `chaoskit-runner-${version}.tar`);
const run = (file, args, options = {}) =>
  execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
const say = (line) => process.stderr.write(`image: ${line}\n`);

function works(file, args) {
  const result = spawnSync(file, args, { stdio: 'ignore' });
  return result.status === 0;
}

/** The engine: the one --engine names, else the first found of buildah, podman, docker (with a daemon). */
function engine() {
  const at = process.argv.indexOf('--engine');
  const wanted = at > 0 ? process.argv[at + 1] : undefined;
  const candidates = [
    ['buildah', ['--version']],
    ['podman', ['--version']],
    ['docker', ['info']],
  ].filter(([name]) => !wanted || name === wanted);
  if (wanted && candidates.length === 0) throw new Error(`--engine ${wanted}: buildah, podman or docker`);
  const found = candidates.find(([name, args]) => works(name, args));
  if (!found)
    throw new Error(
      `no image engine here: tried ${candidates.map(([n]) => n).join(', ')} (docker needs its daemon); install buildah or podman`,
    );
  return found[0];
}

/** The single file, built from the runner's build when it is missing or older than the bundle. */
function copySingle() {
  if (!existsSync(join(bundle, 'chaoskit.mjs')))
    throw new Error('packages/runner is not built: run npx turbo run build first');
  run(process.execPath, [join(root, 'packages/runner/scripts/single.mjs'), '--if-stale'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  mkdirSync(join(rootfs, 'usr/local/bin'), { recursive: true });
  copyFileSync(single, join(rootfs, 'usr/local/bin/chaoskit'));
  chmodSync(join(rootfs, 'usr/local/bin/chaoskit'), 0o755);
  // Its third-party notices travel with it.
  mkdirSync(join(rootfs, 'usr/share/doc/chaoskit'), { recursive: true });
  copyFileSync(
    join(dirname(single), 'THIRD-PARTY-LICENSES.txt'),
    join(rootfs, 'usr/share/doc/chaoskit/THIRD-PARTY-LICENSES.txt'),
  );
}

/** The shared libraries Node (the single file's) loads, at the same paths, and who the pod runs as. */
function copyLibraries() {
  const into = (path) => {
    const target = join(rootfs, path);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(path, target);
    chmodSync(target, 0o755);
  };
  for (const line of run('ldd', [single]).split('\n')) {
    const path = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1];
    if (path) into(path);
  }
  // The user the pod runs as (65532): named, for what asks who it is.
  mkdirSync(join(rootfs, 'etc'), { recursive: true });
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    'root:x:0:0:root:/root:/sbin/nologin\nchaoskit:x:65532:65532:chaoskit:/tmp:/sbin/nologin\n',
  );
  writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nchaoskit:x:65532:\n');
  mkdirSync(join(rootfs, 'tmp'), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
}

function duSize(dir) {
  return Number(run('du', ['-sb', dir]).split('\t')[0]);
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function build(tool) {
  const file = join(root, 'Containerfile');
  const args = ['build', '-f', file, '-t', IMAGE, '--build-arg', `VERSION=${version}`, stage];
  if (tool === 'buildah') run('buildah', ['bud', '--quiet', ...args.slice(1)], { stdio: 'inherit' });
  else run(tool, args, { stdio: 'inherit' });
  rmSync(archive, { force: true });
  if (tool === 'docker') run('docker', ['save', '-o', archive, IMAGE]);
  else if (tool === 'podman') run('podman', ['save', '--format', 'oci-archive', '-o', archive, IMAGE]);
  else run('buildah', ['push', '--quiet', IMAGE, `oci-archive:${archive}:${IMAGE}`]);
}

const contextOnly = process.argv.includes('--context-only');
const tool = contextOnly ? undefined : engine();
rmSync(stage, { recursive: true, force: true });
copySingle();
copyLibraries();
const content = duSize(rootfs);
if (!tool) {
  say(`context staged in ${stage}: ${mib(content)} (docker build -f Containerfile ${stage})`);
  process.exit(0);
}
say(`building ${IMAGE} with ${tool}`);
build(tool);
say(
  `${IMAGE}: ${mib(content)} of files (chaoskit ${mib(statSync(join(rootfs, 'usr/local/bin/chaoskit')).size)}); archive ${archive} ${mib(statSync(archive).size)}`,
);
process.stdout.write(`${JSON.stringify({ image: IMAGE, archive, bytes: content })}\n`);
