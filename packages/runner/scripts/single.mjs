// The single-file `chaoskit` (D157): `npm run single -w @chaoskit/runner`, after the runner's
// build. dist/single/chaoskit is this machine's Node with the command inside it, as a Node
// single executable application whose V8 startup snapshot holds the command already loaded
// (src/single.ts): one file to copy, the runner image's payload. dist/single/chaoskit.cjs is the
// script it was built from, every activity package built in as in the bundle (and evaluated in the
// snapshot), and @chaoskit/telemetry with gRPC's exporters, which the bundle leaves to
// node_modules (D164): the image sends traces and metrics with nothing installed. Not part of
// `build`: the file is Node's size (134 MiB), built where it is used.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { inject } from 'postject';
import {
  activityPackages,
  builtIn,
  clientNodeUsed,
  commonOptions,
  home,
  manifest,
  summary,
  writeNotices,
  zodEnglishOnly,
} from './plugins.mjs';

const outdir = join(home, 'dist', 'single');
// Each file is written beside its place and renamed into it: a test or the image build running
// the file meanwhile keeps the one it started (two builds at once each leave a whole file).
const part = (name) => join(outdir, `${name}.${process.pid}`);
// A build that fails leaves none of its parts.
process.on('exit', () => {
  for (const name of ['chaoskit.cjs', 'chaoskit', 'sea-config.json', 'chaoskit.blob'])
    rmSync(part(name), { force: true });
});
const script = join(outdir, 'chaoskit.cjs');
const executable = join(outdir, 'chaoskit');
// --if-stale (the image's, the bench's and the tests' call): nothing to do when the file is newer
// than the bundle, which the same build of dist/ wrote.
const bundle = join(home, 'dist', 'bundle', 'chaoskit.mjs');
if (
  process.argv.includes('--if-stale') &&
  existsSync(executable) &&
  statSync(executable).mtimeMs >= statSync(bundle).mtimeMs
)
  process.exit(0);

// Node's http, https, http2 and tls hold native state that a startup snapshot cannot keep (the
// snapshot builder aborts). Each is a module of the same exports, which loads the real one the
// first time one of them is read: when the first request is made, after the snapshot.
const UNSNAPSHOTTABLE = ['http', 'https', 'http2', 'tls'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${UNSNAPSHOTTABLE.join('|')})$`);
    b.onResolve({ filter }, ({ path, namespace }) =>
      namespace === 'lazy-builtin'
        ? { path, external: true }
        : { path: path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => {
      const names = Object.keys(createRequire(import.meta.url)(`node:${path}`));
      const getters = names.map(
        (n) => `${JSON.stringify(n)}: { get: () => load()[${JSON.stringify(n)}], enumerable: true }`,
      );
      return {
        contents: `let real;\nconst load = () => (real ??= require("node:${path}"));\nmodule.exports = Object.defineProperties({}, {\n  ${getters.join(',\n  ')}\n});\n`,
        loader: 'js',
      };
    });
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

// ECharts (`chaoskit report`'s charts, an optional peer) is found from the working directory:
// the script's own require reaches Node's built-ins only.
const fromWorkingDirectory = {
  name: 'from-working-directory',
  setup(b) {
    b.onResolve({ filter: /^(echarts|zrender)(\/.*)?$/ }, ({ path }) => ({ path, namespace: 'cwd' }));
    b.onLoad({ filter: /.*/, namespace: 'cwd' }, ({ path }) => ({
      contents: `module.exports = require("node:module").createRequire(require("node:path").join(process.cwd(), "noop.js"))(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

mkdirSync(outdir, { recursive: true });
const result = await build({
  entryPoints: [join(home, 'dist', 'single.js')],
  outfile: part('chaoskit.cjs'),
  ...commonOptions,
  format: 'cjs',
  // import.meta of the ES modules: the executable's own location, read when it is asked for
  // (the snapshot is built on another machine than the one it runs on).
  define: {
    CHAOSKIT_RUNNER_VERSION: JSON.stringify(manifest(home).version),
    'import.meta': '__chaoskitImportMeta',
  },
  banner: {
    js: 'var __chaoskitImportMeta = { get url() { return require("node:url").pathToFileURL(process.execPath).href; } };',
  },
  plugins: [builtIn, clientNodeUsed, grpcBaseAsCommonJs, zodEnglishOnly, lazyBuiltins, fromWorkingDirectory],
  // Each start deserializes the snapshot, source included: minified, --version took 51 ms, not
  // 67 (D157). Names kept: errors and classes are told by their names.
  minify: true,
  keepNames: true,
});

// Node's single executable: the script's snapshot in a blob, injected into a copy of this Node.
const config = part('sea-config.json');
const blob = part('chaoskit.blob');
writeFileSync(
  config,
  JSON.stringify({
    main: part('chaoskit.cjs'),
    output: blob,
    useSnapshot: true,
    disableExperimentalSEAWarning: true,
  }),
);
// Its output (Node's warnings on the built-ins the script loads, which the tests cover) only when it fails.
const sea = spawnSync(process.execPath, ['--experimental-sea-config', config], { encoding: 'utf8' });
if (sea.status !== 0) throw new Error(`the snapshot of ${script} could not be built:\n${sea.stderr}`);
copyFileSync(process.execPath, part('chaoskit'));
chmodSync(part('chaoskit'), 0o755);
await inject(part('chaoskit'), 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
});
rmSync(config);
rmSync(blob);
writeNotices(result.metafile, outdir);
renameSync(part('chaoskit.cjs'), script);
renameSync(part('chaoskit'), executable);
process.stderr.write(
  `single: dist/single/chaoskit, from a script of ${summary(result.metafile)} with ${activityPackages.length} activity packages built in\n`,
);
