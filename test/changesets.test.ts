// The `chaoskit` command is a bundle with core and chaoskit's activity packages built in (D149):
// a fix released in one of them reaches the command's users only in a new runner. changesets
// does not release a package for a change in its devDependencies, so the pending changesets
// must say it: whenever they release a built-in package, they release @chaoskit/runner too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT_IN = /^@chaoskit\/(core|chaoscluster-[\w-]+|chaosmesh-[\w-]+)$/;

/** The packages a changeset releases: the keys of its front matter. */
function releases(text: string): string[] {
  const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  return [...front.matchAll(/^["']?(@chaoskit\/[\w-]+)["']?\s*:/gm)].map((m) => m[1]!);
}

it('pending changesets that release a package built into the command also release @chaoskit/runner', () => {
  const dir = join(ROOT, '.changeset');
  const pending = readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => ({ file: f, packages: releases(readFileSync(join(dir, f), 'utf8')) }));
  const builtIn = pending.filter((c) => c.packages.some((p) => BUILT_IN.test(p)));
  const runner = pending.filter((c) => c.packages.includes('@chaoskit/runner'));
  if (builtIn.length > 0)
    expect(
      runner.map((c) => c.file),
      `${builtIn.map((c) => c.file).join(', ')} release built-in packages; add "@chaoskit/runner": patch to one of them`,
    ).not.toEqual([]);
  // The front matter is read as changesets reads it: every pending file names what it releases.
  expect(pending.filter((c) => c.packages.length === 0).map((c) => c.file)).toEqual([]);
});
