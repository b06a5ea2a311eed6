// The bundled `chaoskit` command (D149), run by the runner's build after tsc: dist/bin.js and
// everything it imports, in dist/bundle/ — chaoskit.mjs, the entry, and the chunks it imports
// on demand. Every chaoskit activity package of the repository is built in, each its own chunk,
// imported only when an experiment names one of its modules; code that several chunks use
// (@chaoskit/core and its dependencies) sits in shared chunks, each module once, so that the
// process holds one @chaoskit/core whatever it loads. The directory needs no node_modules: the
// runner image is Node and this directory. Only ECharts stays outside (an optional peer,
// `chaoskit report`'s charts), found in node_modules when installed.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const home = dirname(dirname(fileURLToPath(import.meta.url)));
const packagesDir = dirname(home);
const outdir = join(home, 'dist', 'bundle');
const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** chaoskit's activity packages: the workspace's chaoscluster-* and chaosmesh-*. */
const activityPackages = readdirSync(packagesDir)
  .filter((name) => /^chaos(cluster|mesh)-/.test(name))
  .map((name) => manifest(join(packagesDir, name)))
  .map(({ name, version, chaoskit }) => ({ name, version, modules: chaoskit.modules }));

/** The bundle's version of dist/bundled.js: the packages, each behind its dynamic import. */
const bundledModule = `export const BUNDLED = [\n${activityPackages
  .map(
    ({ name, version, modules }) =>
      `  { name: ${JSON.stringify(name)}, version: ${JSON.stringify(version)}, modules: ${JSON.stringify(modules)}, load: () => import(${JSON.stringify(name)}) },`,
  )
  .join('\n')}\n];\n`;

const builtIn = {
  name: 'chaoskit-bundled-packages',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]bundled\.js$/ }, () => ({
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
const clientNodeUsed = {
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
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, ({ path }) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
};

// OpenTelemetry's gRPC exporter base, as an ES module, loads @grpc/grpc-js both by import (built
// in) and by a require made at run time (`createRequire`, which finds the file in node_modules, or
// nothing in the image): two instances, whose credentials and metadata the other refuses
// ("Channel credentials must be a ChannelCredentials object"). Its CommonJS build only requires,
// and every require is built in: one instance.
const grpcBaseAsCommonJs = {
  name: 'otlp-grpc-base-commonjs',
  setup(b) {
    b.onResolve({ filter: /^@opentelemetry\/otlp-grpc-exporter-base$/ }, ({ path, resolveDir, kind }) =>
      kind === 'require-call' ? undefined : b.resolve(path, { resolveDir, kind: 'require-call' }),
    );
  },
};

// `node:http` and `node:https` are required, not imported. An ES module's import of a built-in
// builds its module facade, which reads every export: node:http's lazy WebSocket and friends then
// load Node's internal undici before chaoskit's first request (user time to the first connect of
// a one-probe run: 304 → 283 ms, hyperfine, 30 runs). A require reads what the code uses; the
// chunks' banner gives them require. The other built-ins were not measured to cost as much.
const httpRequired = {
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

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { chaoskit: join(home, 'dist', 'bin.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  // Dependencies written as CommonJS call require() for Node's built-ins: an ESM chunk has none.
  banner: {
    js: "import { createRequire as __chaoskitRequire } from 'node:module'; const require = __chaoskitRequire(import.meta.url);",
  },
  define: { CHAOSKIT_RUNNER_VERSION: JSON.stringify(manifest(home).version) },
  external: ['echarts', 'echarts/*', 'zrender', 'zrender/*'],
  plugins: [builtIn, clientNodeUsed, grpcBaseAsCommonJs, httpRequired, zodEnglishOnly],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// The licences of the third-party packages built in: their notices travel with their code.
const thirdParty = new Set(
  Object.keys(result.metafile.inputs)
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
writeFileSync(join(outdir, 'THIRD-PARTY-LICENSES.txt'), notices.join(`\n${'-'.repeat(72)}\n\n`));
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
process.stderr.write(
  `bundle: dist/bundle/ ${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${activityPackages.length} activity packages built in\n`,
);
