// No phantom dependency: every package a published file imports is declared by its package
// (dependencies or peerDependencies), or is a Node builtin. Tests may also use the package's
// devDependencies, the root's, and the workspace's packages (npm links each of them for the whole
// checkout). The tarball test proves the same at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, rootManifest, workspacePackages } from './repo.js';

const SOURCE = /\.(m?ts|tsx|m?js)$/;
const TEST_FILE = /\.test\.ts$|(^|\/)test-[^/]*\.ts$/;
// import … from 'x', export … from 'x', import 'x', import('x'), typeof import('x'), require('x')
// `from` as a word after a space, not inside a string (`buildah('from', '--quiet')`).
const LITERAL_IMPORT =
  /(?:(?<![\w'"])from\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(["'])([^"'\n]+)\1/g;
// import(expression): what it loads cannot be checked here, so each one is listed with why.
const COMPUTED_IMPORT = /\bimport\s*\(\s*(?!["'`])/g;
const COMPUTED_IMPORTS_ALLOWED: Record<string, string> = {
  // Loads an activity package when an experiment names one of its modules (the packages are
  // not dependencies: users install those they use, and a missing one is reported as such), and
  // the experiment's js controls (D81), by path or package.
  'packages/runner/src/package/import-module.ts':
    "extension packages and the experiment's js controls, on demand",
  // The case files of the kit, found on disk next to it (adding a case is adding its file).
  'packages/conformance/src/cases/index.ts': "the kit's own case files",
  // client-node, only for what chaoskit's own client does not do (exec over websockets,
  // legacy auth-providers): loaded when such a call happens, not at start-up.
  'packages/core/src/auth/client-node.ts': '@kubernetes/client-node, on first use',
  'packages/core/src/transport/connection.ts': 'hpagent, for a proxy',
  'packages/core/src/auth/auth-provider.ts': '@kubernetes/client-node, for a legacy auth-provider',
  'packages/chaoscluster-pod/src/pod-exec.ts': '@kubernetes/client-node, for exec over websockets',
  // A test helper: the index of the activity package whose test calls it, so that its list of
  // activities is read from the package, not kept by hand (issue 39).
  'packages/cluster/src/testing/activities.ts': "the calling activity package's own index, in its tests",
};

const packageName = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const rootDev = Object.keys(rootManifest().devDependencies ?? {});
const workspace = workspacePackages().map((p) => p.manifest.name);

describe.each(workspacePackages().map((p) => [p.short, p] as const))('%s', (_, p) => {
  const { manifest } = p;
  const published = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const forTests = new Set([
    ...published,
    ...Object.keys(manifest.devDependencies ?? {}),
    ...rootDev,
    ...workspace,
  ]);
  const files = sourceFiles(join(p.dir, 'src'));

  it('imports only declared packages and node: builtins', () => {
    const undeclared: string[] = [];
    for (const file of files) {
      const isTest = TEST_FILE.test(relative(p.dir, file));
      const text = stripComments(readFileSync(file, 'utf8'));
      for (const match of text.matchAll(LITERAL_IMPORT)) {
        const specifier = match[2] as string;
        if (specifier.startsWith('.') || specifier.startsWith('/')) continue;
        if (specifier.startsWith('node:')) continue;
        if (builtinModules.includes(specifier)) {
          undeclared.push(`${relative(repoRoot, file)}: '${specifier}' (write 'node:${specifier}')`);
          continue;
        }
        const name = packageName(specifier);
        if (!(isTest ? forTests : published).has(name)) {
          const hint = !isTest && forTests.has(name) ? ' (only a devDependency)' : '';
          undeclared.push(`${relative(repoRoot, file)}: '${specifier}'${hint}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('computes no import it does not explain', () => {
    const unexplained: string[] = [];
    for (const file of files) {
      const path = relative(repoRoot, file);
      const text = stripComments(readFileSync(file, 'utf8'));
      if (COMPUTED_IMPORT.test(text) && !(path in COMPUTED_IMPORTS_ALLOWED)) unexplained.push(path);
      COMPUTED_IMPORT.lastIndex = 0;
    }
    expect(unexplained).toEqual([]);
  });
});
