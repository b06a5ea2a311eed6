import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start } from '../start.js';
import { PreflightError } from './preflight.js';

// A machine without Go and openssl, and an empty cache: the start must stop before any
// component runs, with one line per missing thing.
describe('local provider preflight', () => {
  let cache: string;
  const saved = { PATH: process.env.PATH, CHAOSKIT_CACHE: process.env.CHAOSKIT_CACHE };
  beforeEach(async () => {
    cache = await mkdtemp(join(tmpdir(), 'chaoskit-preflight-'));
    process.env.CHAOSKIT_CACHE = cache;
  });
  afterEach(async () => {
    process.env.PATH = saved.PATH;
    if (saved.CHAOSKIT_CACHE === undefined) delete process.env.CHAOSKIT_CACHE;
    else process.env.CHAOSKIT_CACHE = saved.CHAOSKIT_CACHE;
    await rm(cache, { recursive: true, force: true });
  });

  it('names every missing tool in one error, before anything is built or started', async () => {
    process.env.PATH = join(cache, 'empty-bin');
    const progress: string[] = [];
    const err = await start({ provider: 'local', progress: (l) => progress.push(l) }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PreflightError);
    const problems = (err as PreflightError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^openssl was not found on PATH/);
    expect(problems[1]).toMatch(
      /^Go was not found on PATH: it is needed once, to build etcd, kwok, kube-apiserver.* and fetch Istio's CRDs from the Go module proxy into .* \(Go 1\.24\.0 or later\)$/,
    );
    // Nothing was built, fetched or started: no progress line, an empty cache.
    expect(progress).toEqual([]);
  });

  it('refuses a mesh CRD file that does not exist, naming it', async () => {
    const missing = join(cache, 'no-such-crds.yaml');
    const err = await start({ provider: 'local', mesh: { crdsPath: missing } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreflightError);
    expect((err as PreflightError).problems).toContain(
      `the mesh CRD file ${missing} does not exist (mesh.crdsPath or CHAOSKIT_MESH_CRDS)`,
    );
  });
});
