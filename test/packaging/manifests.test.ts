// What every package.json promises a user: the license text, the changelog, no placeholder
// metadata, internal dependencies that npm links to the workspace copies, and (until the first
// release) pending changesets that publish exactly the seeds' versions.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, workspacePackages } from './repo.js';

const packages = workspacePackages();
const workspaceVersion = new Map(packages.map((p) => [p.manifest.name, p.manifest.version]));

describe('LICENSE', () => {
  const root = readFileSync(join(repoRoot, 'LICENSE'), 'utf8');

  it('is the Apache License 2.0 at the root', () => {
    expect(root).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(root).toContain('END OF TERMS AND CONDITIONS');
    expect(root).toContain('APPENDIX: How to apply the Apache License to your work.');
  });

  it.each(packages.map((p) => [p.short, p] as const))('%s ships a byte-identical copy', (_, p) => {
    expect(readFileSync(join(p.dir, 'LICENSE'), 'utf8')).toBe(root);
    expect(p.manifest.license).toBe('Apache-2.0');
  });
});

describe.each(packages.map((p) => [p.short, p] as const))('%s/package.json', (_, p) => {
  it('publishes LICENSE and CHANGELOG.md', () => {
    expect(p.manifest.files).toEqual(
      expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'dist']),
    );
  });

  it('has a README that says how to install it, and that it is an ES module', () => {
    const readme = readFileSync(join(p.dir, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`npm install (--save-dev )?(\\S+ )*${p.manifest.name}\\b`));
    expect(readme).toContain('"type": "module"');
  });

  it('has no placeholder metadata', () => {
    // There is no public repository: no repository, homepage or bugs until there is one.
    expect(p.manifest).not.toHaveProperty('repository');
    expect(p.manifest).not.toHaveProperty('homepage');
    expect(p.manifest).not.toHaveProperty('bugs');
    expect(JSON.stringify(p.manifest)).not.toContain('example.invalid');
  });

  it('depends on the workspace versions of @chaoskit packages (npm links them, changesets updates them)', () => {
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies'] as const) {
      for (const [name, range] of Object.entries(p.manifest[field] ?? {})) {
        if (!name.startsWith('@chaoskit/')) continue;
        expect(workspaceVersion.has(name), `${name} is a workspace package`).toBe(true);
        expect(range, `${field}.${name}`).toBe(`^${workspaceVersion.get(name)}`);
      }
    }
  });

  it('is linked, not installed from the registry', () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { link?: boolean; resolved?: string }>;
    };
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path.endsWith(`node_modules/${p.manifest.name}`)) {
        expect(entry, path).toMatchObject({ link: true, resolved: `packages/${p.short}` });
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The first release
// ---------------------------------------------------------------------------------------------

type Bump = 'patch' | 'minor' | 'major';

/** The versions of the Python originals chaoskit implements: what the first release must publish. */
const SEED_VERSION = (short: string): string =>
  short.startsWith('chaoscluster-') ? '0.25.1' : short === 'chaosmesh-fault' ? '0.1.4' : '0.1.0';

/** Where package.json stands until then: one step below. */
const UNRELEASED_VERSION = (short: string): string =>
  short.startsWith('chaoscluster-') ? '0.25.0' : short === 'chaosmesh-fault' ? '0.1.3' : '0.0.0';

function readChangesets(): { file: string; releases: Map<string, Bump> }[] {
  const dir = join(repoRoot, '.changeset');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
      const releases = new Map<string, Bump>();
      for (const line of front.split('\n').filter((l) => l.trim())) {
        const match = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
        if (!match) throw new Error(`.changeset/${file}: cannot read '${line}'`);
        releases.set(match[1] as string, match[2] as Bump);
      }
      return { file, releases };
    });
}

const ORDER: Bump[] = ['patch', 'minor', 'major'];

function bump(version: string, type: Bump): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (type === 'major') return `${major + 1}.0.0`;
  if (type === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** Whether `version` satisfies `^base` (npm's caret: 0.x and 0.0.x pin more). */
function caret(base: string, version: string): boolean {
  const [a = 0, b = 0, c = 0] = base.split('.').map(Number);
  const [x = 0, y = 0, z = 0] = version.split('.').map(Number);
  const atLeast = x > a || (x === a && (y > b || (y === b && z >= c)));
  if (!atLeast) return false;
  if (a > 0) return x === a;
  if (b > 0) return x === 0 && y === b;
  return x === 0 && y === 0 && z === c;
}

/**
 * The versions `changeset version` makes: each package's highest pending bump; and a patch for a
 * package whose dependency leaves the range it declares (updateInternalDependencies).
 */
function releasePlan(): Map<string, string> {
  const bumps = new Map<string, Bump>();
  for (const { releases } of readChangesets()) {
    for (const [name, type] of releases) {
      const current = bumps.get(name);
      if (!current || ORDER.indexOf(type) > ORDER.indexOf(current)) bumps.set(name, type);
    }
  }
  for (let changed = true; changed; ) {
    changed = false;
    const next = new Map(
      [...bumps].map(([name, type]) => [name, bump(workspaceVersion.get(name) ?? '', type)]),
    );
    for (const p of packages) {
      if (bumps.has(p.manifest.name)) continue;
      for (const [dep, range] of Object.entries(p.manifest.dependencies ?? {})) {
        const to = next.get(dep);
        if (to && !caret(range.replace(/^\^/, ''), to)) {
          bumps.set(p.manifest.name, 'patch');
          changed = true;
        }
      }
    }
  }
  return new Map(
    packages.map((p) => {
      const type = bumps.get(p.manifest.name);
      return [p.manifest.name, type ? bump(p.manifest.version, type) : p.manifest.version];
    }),
  );
}

describe('the pending release', () => {
  it('names only workspace packages', () => {
    for (const { file, releases } of readChangesets()) {
      for (const name of releases.keys()) expect(workspaceVersion.has(name), `${file}: ${name}`).toBe(true);
    }
  });

  const unreleased = packages.filter(
    (p) => p.manifest.version === UNRELEASED_VERSION(p.short) && !existsSync(join(p.dir, 'CHANGELOG.md')),
  );

  it.skipIf(unreleased.length === 0).each(unreleased.map((p) => [p.short, p] as const))(
    '%s: publishes the seed version first',
    (_, p) => {
      expect(releasePlan().get(p.manifest.name)).toBe(SEED_VERSION(p.short));
    },
  );

  it.skipIf(unreleased.length === 0)(
    'takes only patch changesets for chaoscluster-* and chaosmesh-fault before their first release',
    () => {
      for (const { file, releases } of readChangesets()) {
        for (const [name, type] of releases) {
          const short = name.replace('@chaoskit/', '');
          if (!/^chaos(cluster|mesh)-/.test(short)) continue;
          if (!unreleased.some((p) => p.short === short)) continue;
          expect(type, `.changeset/${file}: ${name}`).toBe('patch');
        }
      }
    },
  );
});
