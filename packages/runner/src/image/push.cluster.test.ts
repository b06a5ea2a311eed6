// `chaoskit image build --push` against a real registry (go-containerregistry's, built from the
// Go module proxy by @chaoskit/cluster, serving plain HTTP on a loopback port which the engine is
// told is insecure, as a user's registries.conf would): the image arrives, tagged with the
// runner's version, and is the runner's — its entrypoint, user and version label, read back
// from the registry. Skipped, with the reason, where buildah is not installed.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRegistry } from '@chaoskit/cluster';
import { until } from '@chaoskit/cluster/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RUNNER_VERSION } from '../package/version.js';
import { runCli } from '../testing/test-cli.js';

const buildah = spawnSync('buildah', ['--version']).status === 0;
let dir: string;
let registry: ChildProcess | undefined;
let port = 0;

beforeAll(async () => {
  if (!buildah) return;
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-push-'));
  registry = spawn(await ensureRegistry(), ['-port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  registry.stderr!.on('data', (chunk) => (said += chunk));
  port = await until('the registry to listen', async () =>
    Number(/serving on port (\d+)/.exec(said)?.[1] ?? 0),
  );
  await writeFile(
    join(dir, 'registries.conf'),
    `[[registry]]\nlocation = "localhost:${port}"\ninsecure = true\n`,
  );
}, 600_000);

afterAll(async () => {
  registry?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('pushes the runner image to the registry --push names, tagged with the runner version, and saves no archive', async (ctx) => {
  if (!buildah) ctx.skip("buildah is not installed (./dev installs it with the real nodes' packages)");
  const work = join(dir, 'work');
  await mkdir(work);
  const repository = `localhost:${port}/chaoskit/runner`;
  const out = await runCli(['image', 'build', '--engine', 'buildah', '--push', repository], {
    cwd: work,
    env: { ...process.env, CONTAINERS_REGISTRIES_CONF: join(dir, 'registries.conf') },
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(out.code, out.stderr).toBe(0);
  expect(out.stdout).toContain(
    `pushed ${repository}:${RUNNER_VERSION}: deploy it with chaoskit deploy <experiment> --image ${repository}:${RUNNER_VERSION}\n`,
  );
  expect(await readdir(work)).toEqual([]);

  const get = async <T>(path: string, accept = '*/*'): Promise<T> => {
    const response = await fetch(`http://localhost:${port}/v2/chaoskit/runner/${path}`, {
      headers: { accept },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const manifest = await get<{ config: { digest: string }; layers: Array<{ size: number }> }>(
    `manifests/${RUNNER_VERSION}`,
    'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json',
  );
  expect(manifest.layers).toHaveLength(1);
  // The one file (Node, 130 MiB and more) is in it, compressed.
  expect(manifest.layers[0]?.size).toBeGreaterThan(30 * 1024 * 1024);
  const config = await get<{ config: Record<string, unknown> }>(`blobs/${manifest.config.digest}`);
  expect(config.config).toMatchObject({
    Entrypoint: ['/usr/local/bin/chaoskit'],
    User: '65532:65532',
    Labels: { 'org.opencontainers.image.version': RUNNER_VERSION },
  });
}, 600_000);
