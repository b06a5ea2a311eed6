import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  binaryPaths,
  ensureBuilds,
  ISTIO_VERSION,
  missingBinaries,
  realNodeBuildsMissing,
} from './binaries.js';

describe('binaries', () => {
  let cache: string;
  let saved: string | undefined;
  beforeEach(async () => {
    saved = process.env.CHAOSKIT_CACHE;
    cache = await mkdtemp(join(tmpdir(), 'chaoskit-cache-'));
    process.env.CHAOSKIT_CACHE = cache;
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.CHAOSKIT_CACHE;
    else process.env.CHAOSKIT_CACHE = saved;
    await rm(cache, { recursive: true, force: true });
  });

  it('a plain cluster needs neither istiod, the mesh probe, the bench reference client, nor what real nodes need', () => {
    const missing = missingBinaries();
    expect(missing).toHaveLength(Object.keys(binaryPaths()).length);
    expect(missing.every((p) => p.startsWith(join(cache, 'bin')))).toBe(true);
    expect(
      missing.some(
        (p) =>
          p.includes('istiod') ||
          p.includes(ISTIO_VERSION) ||
          p.includes('meshprobe') ||
          p.includes('benchref') ||
          p.includes('kube-router') ||
          p.includes('images-'),
      ),
    ).toBe(false);
    expect(realNodeBuildsMissing()).toEqual(['kube-router', 'pause', 'webapp']);
  });

  it('builds at once run each to its end and report every one that failed, with why', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(cache, 'no-go-here');
    try {
      const lines: string[] = [];
      const failed = await ensureBuilds(['meshprobe', 'images'], (line) => lines.push(line));
      expect(failed.map((f) => f.build).sort()).toEqual(['images', 'meshprobe']);
      for (const { error } of failed) expect(error.message).toMatch(/cannot run 'go'/);
      // Each said what it was building.
      expect(lines.filter((l) => l.startsWith('chaoskit: building')).length).toBe(2);
    } finally {
      process.env.PATH = path;
    }
    // Nothing half-built is left where start() looks: no binary, no scratch directory.
    const bin = join(cache, 'bin');
    expect(existsSync(bin) ? readdirSync(bin) : []).toEqual([]);
  });
});
