// esbuild plugins that both builds of the `chaoskit` command use: the bundle of ES module chunks
// (bundle.mjs, D149) and the single file (single.mjs, D157).
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const home = dirname(dirname(fileURLToPath(import.meta.url)));
const packagesDir = dirname(home);
export const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/**
 * What the built command carries that its files would otherwise read beside it: its version,
 * and the decisions `chaoskit explain` prints (the repository's docs/decisions.md, which no
 * tarball holds).
 */
export const builtInText = () => ({
  CHAOSKIT_RUNNER_VERSION: JSON.stringify(manifest(home).version),
  CHAOSKIT_DECISIONS: JSON.stringify(readFileSync(join(home, '..', '..', 'docs', 'decisions.md'), 'utf8')),
});

/** What both builds ask of esbuild (the metafile's inputs are relative to `home`: writeNotices reads them there). */
export const commonOptions = {
  absWorkingDir: home,
  bundle: true,
  platform: 'node',
  target: 'node22',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

/** chaoskit's activity packages: the workspace's chaoscluster-* and chaosmesh-*. */
export const activityPackages = readdirSync(packagesDir)
  .filter((name) => /^chaos(cluster|mesh)-/.test(name))
  .map((name) => manifest(join(packagesDir, name)))
  .map(({ name, version, chaoskit }) => ({ name, version, modules: chaoskit.modules }));

/** The bundle's version of dist/package/bundled.js: the packages, each behind its dynamic import. */
const bundledModule = `export const BUNDLED = [\n${activityPackages
  .map(
    ({ name, version, modules }) =>
      `  { name: ${JSON.stringify(name)}, version: ${JSON.stringify(version)}, modules: ${JSON.stringify(modules)}, load: () => import(${JSON.stringify(name)}) },`,
  )
  .join('\n')}\n];\n`;

export const builtIn = {
  name: 'chaoskit-bundled-packages',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]package[\\/]bundled\.js$/ }, () => ({
      contents: bundledModule,
      loader: 'js',
      resolveDir: home,
    }));
  },
};

// @kubernetes/client-node declares no "sideEffects" and is imported dynamically (a whole
// namespace): all its 870 modules (16 MB) would be kept for the two classes chaoskit imports.
// Its import is the namespace of those two only, its modules taken as plain definitions.
const CLIENT_NODE_USED = ['KubeConfig', 'Exec'];
const clientNodeDir = /[\\/]@kubernetes[\\/]client-node[\\/]/;
export const clientNodeUsed = {
  name: 'client-node-used',
  setup(b) {
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, ({ importer, pluginData }) =>
      pluginData === 'real' || clientNodeDir.test(importer)
        ? undefined
        : { path: 'used', namespace: 'client-node' },
    );
    b.onLoad({ filter: /.*/, namespace: 'client-node' }, () => ({
      contents: `export { ${CLIENT_NODE_USED.join(', ')} } from '@kubernetes/client-node';`,
      resolveDir: home,
      pluginData: 'real',
    }));
    b.onResolve({ filter: /.*/ }, async ({ path, importer, resolveDir, kind, pluginData }) => {
      if (pluginData === 'pure' || (importer !== 'used' && !clientNodeDir.test(importer))) return undefined;
      const resolved = await b.resolve(path, { importer, resolveDir, kind, pluginData: 'pure' });
      if (resolved.errors.length || !clientNodeDir.test(resolved.path)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

// zod's namespace exports every locale (`z.locales`, 369 KB of the 1.2 MB chunk that argument
// validation loads); chaoskit's messages are English, the locale zod registers by itself. Its
// locales module keeps English only.
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, ({ path }) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
};

// `node:http` and `node:https` are required, not imported. An ES module's import of a built-in
// builds its module facade, which reads every export: node:http's lazy WebSocket and friends then
// load Node's internal undici before chaoskit's first request (user time to the first connect of
// a one-probe run: 304 → 283 ms, hyperfine, 30 runs). A require reads what the code uses; the
// chunks' banner gives them require. The other built-ins were not measured to cost as much.
export const httpRequired = {
  name: 'node-http-required',
  setup(b) {
    // Static imports only: a dynamic import of a CommonJS module has only `default` in the bundle,
    // and OpenTelemetry's exporter takes `{ Agent }` and `{ request }` from `await import('http')`.
    b.onResolve({ filter: /^(node:)?https?$/ }, ({ path, kind }) =>
      kind === 'import-statement' ? { path, namespace: 'node-http' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'node-http' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

/** The licences of the third-party packages built in, beside the build: their notices travel with their code. */
export function writeNotices(metafile, outdir) {
  const thirdParty = new Set(
    Object.keys(metafile.inputs)
      .map((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
      .filter(Boolean),
  );
  const notices = [...thirdParty].sort().map((dir) => {
    const at = join(home, dir);
    const file = readdirSync(at).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const { name, version, license } = manifest(at);
    const text = file ? readFileSync(join(at, file), 'utf8').trim() : `License: ${license}`;
    return `${name}@${version}\n\n${text}\n`;
  });
  const file = join(outdir, 'THIRD-PARTY-LICENSES.txt');
  writeFileSync(`${file}.${process.pid}`, notices.join(`\n${'-'.repeat(72)}\n\n`));
  renameSync(`${file}.${process.pid}`, file);
}

/** "N files, X MiB": what a build wrote. */
export function summary(metafile) {
  const bytes = Object.values(metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  return `${Object.keys(metafile.outputs).length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
