// The tarballs a release would publish: the repository's tracked files and built packages, the
// changesets applied (`changeset version` writes each package's version and CHANGELOG), every
// workspace packed. Packed once per run of the packaging project, by the first file that asks,
// and shared: the files run in several workers, so a lock in the run's directory (made by the
// global setup) lets one pack while the others wait for its result.

import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isAlive } from '@chaoskit/cluster/testing';
import { inject } from 'vitest';
import { repoRoot, workspacePackages } from './repo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory of this run of the packaging project, removed after it. */
    packagingRun: string;
  }
}

/** One tarball, as `npm pack --json` describes it. */
export interface Packed {
  name: string;
  version: string;
  filename: string;
  files: { path: string }[];
}

export interface Release {
  packed: Packed[];
  /** The tarball of a package. */
  tarball(name: string): string;
}

/** Runs a command without blocking the worker (others may share its event loop's time). */
export function runAsync(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** `npm install` of `specs` (tarballs, registry names) in `cwd`, as the packaging tests' users install: quietly, or with npm's warnings when a test reads them. */
export function npmInstall(
  cwd: string,
  specs: string[],
  { warnings = false } = {},
): ReturnType<typeof runAsync> {
  const quiet = warnings ? [] : ['--loglevel=error'];
  return runAsync('npm', ['install', '--no-audit', '--no-fund', ...quiet, ...specs], { cwd });
}

async function pack(into: string): Promise<Packed[]> {
  const copy = join(into, 'repo');
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) cpSync(join(repoRoot, file), join(copy, file), { recursive: true });
  for (const { dir, short } of workspacePackages()) {
    const dist = join(dir, 'dist');
    if (existsSync(dist)) cpSync(dist, join(copy, 'packages', short, 'dist'), { recursive: true });
  }
  // The repository's tools (the changesets CLI), not copied: the release reads the copy's files.
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  execFileSync('git', ['init', '-q'], { cwd: copy });
  const version = await runAsync('npx', ['changeset', 'version'], { cwd: copy });
  if (version.code !== 0) throw new Error(`changeset version failed:\n${version.stderr}`);
  const tarballs = join(into, 'tarballs');
  mkdirSync(tarballs);
  const packed = await runAsync('npm', ['pack', '--workspaces', '--json', '--pack-destination', tarballs], {
    cwd: copy,
  });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  rmSync(copy, { recursive: true, force: true });
  return JSON.parse(packed.stdout) as Packed[];
}

const readIfThere = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The run's release, packed by this worker or by the one that took the lock first. */
export async function releaseTarballs(): Promise<Release> {
  const run = inject('packagingRun');
  const done = join(run, 'release');
  const lock = join(run, 'release.lock');
  const failed = join(run, 'release.failed');
  for (;;) {
    if (existsSync(join(done, 'packed.json'))) {
      const packed = JSON.parse(readFileSync(join(done, 'packed.json'), 'utf8')) as Packed[];
      const dir = join(done, 'tarballs');
      const tarball = (name: string) => {
        const entry = packed.find((p) => p.name === name);
        if (!entry) throw new Error(`${name} was not packed`);
        return join(dir, entry.filename);
      };
      return { packed, tarball };
    }
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      // Another worker packs; a lock whose worker died is taken over.
      const owner = Number(readIfThere(lock));
      if (owner && !isAlive(owner)) rmSync(lock, { force: true });
      await delay(500);
      continue;
    }
    const work = join(run, `release-${process.pid}`);
    try {
      mkdirSync(work);
      writeFileSync(join(work, 'packed.json'), JSON.stringify(await pack(work)));
      renameSync(work, done);
    } catch (err) {
      writeFileSync(
        failed,
        `packing the release failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      throw err;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}
