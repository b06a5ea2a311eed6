// The packaging tests look at what users get: the built packages (dist/, with the declaration
// files dts-docs documented) and their tarballs. Build first; a warm turbo cache makes this a
// replay of a few seconds.
import { spawnSync } from 'node:child_process';
import { repoRoot } from './repo.js';

export default function setup(): void {
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
}
