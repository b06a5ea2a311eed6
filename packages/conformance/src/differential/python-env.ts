import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cacheDir, withCacheLock } from '@chaoskit/cluster';

const run = promisify(execFile);

// The Python originals chaoskit is compared with, pinned. kubernetes 12.0.1 is the Python
// client of chaostoolkit-kubernetes 0.25.1's time; chaostoolkit-istio 0.1.4 cannot call the
// API with today's client (its call_api no longer takes auth_settings). jsonpath2 is
// chaostoolkit-lib's `jsonpath` extra: without it, chaoslib refuses JSONPath tolerances.
// chaostoolkit-addons holds the safeguards control, which chaoskit runs itself (D127).
export const PYTHON_ORIGINALS = [
  'chaostoolkit==1.19.0',
  'chaostoolkit-lib==1.44.0',
  'chaostoolkit-kubernetes==0.25.1',
  'chaostoolkit-istio==0.1.4',
  'chaostoolkit-addons==0.11.0',
  'kubernetes==12.0.1',
  'jsonpath2==0.4.5',
];

// Chaos Toolkit's `chaos report`, in an environment of its own (it brings matplotlib and
// friends). It renders through pandoc, whatever the format: the pypandoc_binary wheel ships
// pandoc itself, so nothing is installed outside the environment.
export const PYTHON_REPORTING = [
  'chaostoolkit==1.19.0',
  'chaostoolkit-lib==1.44.0',
  'chaostoolkit-reporting==0.18.0',
  'pypandoc_binary==1.15',
];

/** A virtual environment with the originals (created once, from PyPI); returns its `chaos`. */
export function ensurePythonOriginals(progress: (line: string) => void): Promise<string> {
  return ensurePython('originals', PYTHON_ORIGINALS, progress);
}

/** A virtual environment with `chaos report` (created once, from PyPI); returns its `chaos`. */
export function ensurePythonReporting(progress: (line: string) => void): Promise<string> {
  return ensurePython('reporting', PYTHON_REPORTING, progress);
}

/**
 * The virtual environment `name` with `packages`, in the cache: created once, under the
 * cache's lock (two test files, two checkouts never create it at once).
 */
async function ensurePython(
  name: string,
  packages: readonly string[],
  progress: (line: string) => void,
): Promise<string> {
  // Named by what it holds: another list is another environment.
  const digest = createHash('sha256').update(packages.join('\n')).digest('hex').slice(0, 12);
  const dir = join(cacheDir(), 'python', `${name}-${digest}`);
  const chaos = join(dir, 'bin', 'chaos');
  const done = join(dir, '.complete');
  if (existsSync(done)) return chaos;
  await withCacheLock(async () => {
    if (existsSync(done)) return;
    progress(`creating a Python environment with ${packages.join(', ')} in ${dir}`);
    await rm(dir, { recursive: true, force: true });
    const python = process.env.CHAOSKIT_PYTHON ?? 'python3';
    await run(python, ['-m', 'venv', dir]).catch((err: Error) => {
      throw new Error(
        `cannot create a Python virtual environment with ${python} (is Python 3 with venv installed?): ${err.message}`,
      );
    });
    await run(join(dir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...packages], {
      maxBuffer: 1 << 24,
    });
    await writeFile(done, `${packages.join('\n')}\n`);
  }, progress);
  return chaos;
}
