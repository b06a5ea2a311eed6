// The packaging tests look at what users get: the built packages (dist/, with the declaration
// files dts-docs documented) and their tarballs. Build first; a warm turbo cache makes this a
// replay of a few seconds. The run's directory holds what its files share (release.ts: the
// tarballs, packed once).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot } from './repo.js';

export default function setup(project: TestProject): () => void {
  const build = spawnSync(
    'npx',
    ['turbo', 'run', 'build', '--output-logs=errors-only', '--log-prefix=none'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) {
    throw new Error(`the build failed, so the packaging tests cannot run:\n${build.stdout}${build.stderr}`);
  }
  const run = mkdtempSync(join(tmpdir(), 'chaoskit-packaging-'));
  project.provide('packagingRun', run);
  return () => rmSync(run, { recursive: true, force: true });
}
