// The single-file `chaoskit`'s script (D157), written by the runner's build after the bundle:
// dist/single/chaoskit.cjs, src/single.ts and everything it imports in one CommonJS script,
// every activity package built in as in the bundle (and evaluated in the snapshot), and
// @chaoskit/telemetry with gRPC's exporters, which the bundle leaves to node_modules (D164): the
// image sends traces and metrics with nothing installed. It ships in
// the npm package: `chaoskit image build` makes the one file from it on the user's machine (Node's
// snapshot of it injected into a copy of that machine's Node, src/image/single-file.ts, D165),
// and so does the repository's `npm run single -w @chaoskit/runner` (scripts/executable.mjs).
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  activityPackages,
  builtIn,
  builtInText,
  clientNodeUsed,
  commonOptions,
  home,
  summary,
  writeNotices,
  zodEnglishOnly,
} from './plugins.mjs';

const outdir = join(home, 'dist', 'single');
// Written beside its place and renamed into it: the one file's build reading it meanwhile keeps
// the whole one it started with. A build that fails leaves no part.
const part = join(outdir, `chaoskit.cjs.${process.pid}`);
process.on('exit', () => rmSync(part, { force: true }));

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
  outfile: part,
  ...commonOptions,
  format: 'cjs',
  // import.meta of the ES modules: the executable's own location, read when it is asked for
  // (the snapshot is built on another machine than the one it runs on).
  define: {
    ...builtInText(),
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

writeNotices(result.metafile, outdir);
renameSync(part, join(outdir, 'chaoskit.cjs'));
process.stderr.write(
  `single: dist/single/chaoskit.cjs, ${summary(result.metafile)} with ${activityPackages.length} activity packages built in\n`,
);
