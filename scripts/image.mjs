#!/usr/bin/env node
// `npm run image`: the runner image, built in the repository as users build it from the npm
// package — `chaoskit image build` of the runner's build (D165) — and saved in build/image/.
// Build first (npx turbo run build).
//
// Usage: npm run image [-- --engine buildah|podman|docker] [-- --push registry/name]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runner = join(root, 'packages/runner');
const { version } = JSON.parse(readFileSync(join(runner, 'package.json'), 'utf8'));
mkdirSync(join(root, 'build/image'), { recursive: true });
const archive = join(root, 'build/image', `chaoskit-runner-${version}.tar`);
const built = spawnSync(
  process.execPath,
  [join(runner, 'dist/bundle/chaoskit.mjs'), 'image', 'build', '--output', archive, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(built.status ?? 1);
