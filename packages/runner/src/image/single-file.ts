// The single-file `chaoskit` (D157) made from the script the runner's build ships
// (dist/single/chaoskit.cjs): Node's snapshot builder runs the script once, and the snapshot is
// injected into a copy of the Node running this, as a Node single executable application. Made
// where it is used — the runner image (`chaoskit image build`, D165), the bench, the tests —
// since it is that machine's Node.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The fuse Node's single executables are built with (Node's documentation names it). Made only
 * when a file is: this module is in the snapshot it injects (its source, and the heap of what it
 * evaluated), and postject refuses a file that holds the fuse's text twice.
 */
const seaFuse = () => ['NODE_SEA_FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');

/**
 * The runner package's directory: the nearest above this module that holds the script (the
 * module is dist/image/single-file.js, or a chunk of dist/bundle/ in the bundled command).
 */
export function runnerHome(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'dist', 'single', 'chaoskit.cjs'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** What chaoskit calls of postject (it ships no type declarations), as its README documents it. */
interface Postject {
  inject(file: string, resourceName: string, data: Buffer, options: { sentinelFuse: string }): Promise<void>;
}

/**
 * postject, which injects the snapshot: required when a file is made, from the package's
 * dependencies (a require the bundler leaves alone, so that its 4.7 MB stay out of the bundle).
 */
function injector(): Postject {
  try {
    return createRequire(import.meta.url)('postject') as Postject;
  } catch {
    throw new Error(
      'postject, a dependency of @chaoskit/runner that makes the one file, is not installed beside it',
    );
  }
}

/**
 * Writes the single-file command to `output` from `script`, with the Node running this. Written
 * beside its place and renamed into it: whoever runs the file meanwhile keeps the one it started.
 */
export async function writeSingleFile(script: string, output: string): Promise<void> {
  const { inject } = injector();
  const work = await mkdtemp(join(tmpdir(), 'chaoskit-single-'));
  const part = `${output}.${process.pid}`;
  try {
    const config = join(work, 'sea-config.json');
    const blob = join(work, 'chaoskit.blob');
    await writeFile(
      config,
      JSON.stringify({ main: script, output: blob, useSnapshot: true, disableExperimentalSEAWarning: true }),
    );
    // Its output (Node's warnings on the built-ins the script loads) only when it fails.
    await promisify(execFile)(process.execPath, ['--experimental-sea-config', config], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stderr?: string }) => {
      throw new Error(`Node could not build the snapshot of ${script}:\n${err.stderr ?? String(err)}`);
    });
    await copyFile(process.execPath, part);
    await chmod(part, 0o755);
    // postject's ELF reader warns on console.warn of each section name it cannot place (Node's
    // notes), harmlessly: those lines are kept for its error, not printed.
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      await inject(part, 'NODE_SEA_BLOB', await readFile(blob), { sentinelFuse: seaFuse() });
    } catch (err) {
      throw new Error(
        `postject could not inject the snapshot: ${(err as Error).message}\n${warnings.join('\n')}`,
      );
    } finally {
      console.warn = warn;
    }
    await rename(part, output);
  } finally {
    await rm(part, { force: true });
    await rm(work, { recursive: true, force: true });
  }
}

/** Whether `output` is missing or older than `script` (the one build of dist/ wrote the script). */
export async function isStale(script: string, output: string): Promise<boolean> {
  if (!existsSync(output)) return true;
  return (await stat(output)).mtimeMs < (await stat(script)).mtimeMs;
}
