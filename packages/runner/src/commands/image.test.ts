// `chaoskit image build`'s bad input: refused with the argument and what it accepts, before any
// file is staged or any engine is asked (the directory stays empty). The build itself is proven
// where the image runs: deploy/in-pod.cluster.test.ts, test/packaging/in-cluster.test.ts.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-image-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it.each([
  [
    ['--push', 'chaoskit-runner'],
    /option '--push <repository>' argument 'chaoskit-runner' is invalid\. 'chaoskit-runner' is not an image repository of a registry: registry\/name\[:tag\], as ghcr\.io\/acme\/chaoskit-runner/,
  ],
  [['--push', 'Registry.io/Acme'], /'Registry\.io\/Acme' is not an image repository of a registry/],
  [
    ['--push', 'chaoskit.local/runner'],
    /'chaoskit\.local\/runner': a \.local name is never pulled: name your registry/,
  ],
  [
    ['--engine', 'rkt'],
    /option '--engine <engine>' argument 'rkt' is invalid\. Allowed choices are buildah, podman, docker/,
  ],
  [
    ['--output', '/nonexistent/runner.tar'],
    /--output \/nonexistent\/runner\.tar: the directory \/nonexistent does not exist/,
  ],
])('image build %j is refused with exit 2 before anything is built', async (args, message) => {
  const out = await runCli(['image', 'build', ...args], { cwd: dir });
  expect(out.stderr).toMatch(message);
  expect(out.code).toBe(2);
  expect(out.stdout).toBe('');
  expect(await readdir(dir)).toEqual([]);
});
