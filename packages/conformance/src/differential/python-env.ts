import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cacheDir } from '@chaoskit/cluster';

const run = promisify(execFile);

// The Python originals chaoskit is compared with, pinned. kubernetes 12.0.1 is the Python
// client of chaostoolkit-kubernetes 0.25.1's time; chaostoolkit-istio 0.1.4 cannot call the
// API with today's client (its call_api no longer takes auth_settings).
export const PYTHON_ORIGINALS = [
  'chaostoolkit==1.19.0',
  'chaostoolkit-lib==1.44.0',
  'chaostoolkit-kubernetes==0.25.1',
  'chaostoolkit-istio==0.1.4',
  'kubernetes==12.0.1',
];

/** A virtual environment with the originals (created once, from PyPI); returns its `chaos`. */
export async function ensurePythonOriginals(progress: (line: string) => void): Promise<string> {
  const dir = join(
    cacheDir(),
    'python',
    `originals-${PYTHON_ORIGINALS.join('_').replace(/[^\w.=-]/g, '')}`.slice(0, 120),
  );
  const chaos = join(dir, 'bin', 'chaos');
  const done = join(dir, '.complete');
  if (existsSync(done)) return chaos;
  progress(`creating a Python environment with ${PYTHON_ORIGINALS.join(', ')} in ${dir}`);
  await rm(dir, { recursive: true, force: true });
  const python = process.env.CHAOSKIT_PYTHON ?? 'python3';
  await run(python, ['-m', 'venv', dir]).catch((err: Error) => {
    throw new Error(
      `cannot create a Python virtual environment with ${python} (is Python 3 with venv installed?): ${err.message}`,
    );
  });
  await run(
    join(dir, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', ...PYTHON_ORIGINALS],
    { maxBuffer: 1 << 24 },
  );
  await writeFile(done, `${PYTHON_ORIGINALS.join('\n')}\n`);
  return chaos;
}
