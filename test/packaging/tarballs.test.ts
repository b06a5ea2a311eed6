// The tarballs a release would publish (release.ts): what they hold, and that each package loads
// with nothing but its declared dependencies beside it (a phantom dependency fails here at run
// time).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Packed, type Release, releaseTarballs } from './release.js';
import { isActivityPackage, type Manifest, repoRoot, workspacePackages } from './repo.js';

const packages = workspacePackages();
let work: string;
let release: Release;
const packed = new Map<string, Packed>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'chaoskit-tarballs-'));
  release = await releaseTarballs();
  for (const entry of release.packed) packed.set(entry.name, entry);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Unpacks `name`'s tarball into a directory of its own, with only its declared dependencies
 * (linked to the repo's copies) beside it, and returns that directory.
 */
const installed = new Map<string, string>();

function isolatedInstall(name: string): string {
  const done = installed.get(name);
  if (done) return done;
  const manifest = packages.find((p) => p.manifest.name === name)?.manifest as Manifest;
  const project = join(work, `install-${name.replace('/', '+')}`);
  const target = join(project, 'node_modules', name);
  mkdirSync(target, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', release.tarball(name), '-C', target, '--strip-components=1']);
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    const link = join(project, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    const source = dep.startsWith('@chaoskit/')
      ? join(repoRoot, 'packages', dep.slice('@chaoskit/'.length))
      : join(repoRoot, 'node_modules', dep);
    symlinkSync(source, link, 'dir');
  }
  installed.set(name, project);
  return project;
}

// A package whose main entry is vitest's test API loads only inside a vitest run (the example
// project's packaging test, vitest-app.test.ts, runs it there); outside one, its plain entry.
const ENTRY_OUTSIDE_A_RUNNER: Record<string, string> = { '@chaoskit/vitest': '@chaoskit/vitest/plain' };

function node(cwd: string, args: string[]) {
  return spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000 });
}

it('installs in a directory with no node_modules above it', () => {
  // Otherwise a package could resolve what it does not declare from there.
  for (let dir = work; ; dir = dirname(dir)) {
    expect(existsSync(join(dir, 'node_modules')), join(dir, 'node_modules')).toBe(false);
    if (dir === parse(dir).root) break;
  }
});

describe.each(packages.map((p) => [p.short, p] as const))('%s tarball', (_, p) => {
  const files = () => (packed.get(p.manifest.name)?.files ?? []).map((f) => f.path);

  it('holds the license, the readme, the build and no test', () => {
    expect(files()).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']),
    );
    expect(files().filter((f) => /\.test\.|(^|\/)test-|\.fixture\.|\/fixtures\//.test(f))).toEqual([]);
    expect(readFileSync(join(p.dir, 'LICENSE'), 'utf8')).toContain('Apache License');
  });

  it('says what it is where npm shows it: a description, keywords, the license', () => {
    const project = isolatedInstall(p.manifest.name);
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', p.manifest.name, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.description).toEqual(expect.stringMatching(/\w{3,}/));
    expect(manifest.keywords).toEqual(expect.arrayContaining(['chaos-engineering', 'kubernetes']));
    expect(manifest.license).toBe('Apache-2.0');
  });

  it('holds exactly the sources its source maps name (D100), so that "go to source" finds them', () => {
    const shipped = new Set(files());
    const named = new Set<string>();
    const maps = files().filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(p.dir, map), 'utf8')) as { sources: string[] };
      for (const source of sources) named.add(posix.normalize(posix.join(posix.dirname(map), source)));
    }
    expect([...named].filter((f) => !shipped.has(f))).toEqual([]);
    expect(files().filter((f) => f.startsWith('src/') && !named.has(f))).toEqual([]);
  });

  it('holds every file its README shows', () => {
    const readme = readFileSync(join(p.dir, 'README.md'), 'utf8');
    const local = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)|<img [^>]*src="([^"]+)"/g)]
      .map((m) => m[1] ?? m[2] ?? '')
      .filter((target) => !/^[a-z]+:/.test(target));
    for (const target of local) expect(files(), target).toContain(posix.normalize(target));
  });

  it('loads with only its declared dependencies', () => {
    const project = isolatedInstall(p.manifest.name);
    const entry = ENTRY_OUTSIDE_A_RUNNER[p.manifest.name] ?? p.manifest.name;
    const load = node(project, [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).length);`,
    ]);
    expect(load.status, load.stderr).toBe(0);
    expect(Number(load.stdout.trim())).toBeGreaterThan(0);
    for (const [bin, path] of Object.entries(p.manifest.bin ?? {})) {
      const help = node(project, [join(project, 'node_modules', p.manifest.name, path), '--help']);
      expect(help.status, `${bin} --help: ${help.stderr}`).toBe(0);
    }
  });
});

describe.each(packages.filter(isActivityPackage).map((p) => [p.short, p] as const))('%s tarball', (_, p) => {
  it('declares exactly the modules of its activities and aliases, which is how the runner finds it', () => {
    const project = isolatedInstall(p.manifest.name);
    const dir = join(project, 'node_modules', p.manifest.name);
    const published = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const declared = (published.chaoskit as { modules?: string[] } | undefined)?.modules ?? [];
    expect(declared.length).toBeGreaterThan(0);
    const load = node(project, [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(p.manifest.name)});
       const modules = [...(m.activities ?? []), ...(m.aliases ?? [])].map((a) => a.module);
       console.log(JSON.stringify([...new Set(modules)].sort()));`,
    ]);
    expect(load.status, load.stderr).toBe(0);
    expect(JSON.parse(load.stdout)).toEqual([...declared].sort());
  });

  it('carries the documented declarations', () => {
    const project = isolatedInstall(p.manifest.name);
    const index = readFileSync(join(project, 'node_modules', p.manifest.name, 'dist', 'index.d.ts'), 'utf8');
    expect(index).toContain('export declare const activities');
    const dts = (packed.get(p.manifest.name)?.files ?? []).filter((f) => f.path.endsWith('.d.ts'));
    const documented = dts.filter((f) =>
      readFileSync(join(project, 'node_modules', p.manifest.name, f.path), 'utf8').includes(
        'scripts/dts-docs.mjs',
      ),
    );
    expect(documented.length).toBeGreaterThan(0);
  });
});

describe('@chaoskit/cluster without its optional packages', () => {
  it('says what to install for the k3s provider', () => {
    const project = isolatedInstall('@chaoskit/cluster');
    const run = node(project, [
      '--input-type=module',
      '-e',
      `import { containerEngineAvailable, start, MissingK3sPackages } from '@chaoskit/cluster';
       const engine = await containerEngineAvailable();
       const err = await start({ provider: 'k3s' }).catch((e) => e);
       console.log(JSON.stringify({ engine, name: err.name, isMissing: err instanceof MissingK3sPackages, message: err.message }));`,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const message =
      'the k3s provider needs the optional packages testcontainers and @testcontainers/k3s: npm install testcontainers @testcontainers/k3s';
    expect(JSON.parse(run.stdout)).toEqual({
      engine: { available: false, reason: message },
      name: 'MissingK3sPackages',
      isMissing: true,
      message,
    });
  });
});
