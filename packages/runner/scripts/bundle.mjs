// The bundled `chaoskit` command (D149), run by the runner's build after tsc: dist/bin.js and
// everything it imports, in dist/bundle/ — chaoskit.mjs, the entry, and the chunks it imports
// on demand. Every chaoskit activity package of the repository is built in, each its own chunk,
// imported only when an experiment names one of its modules; code that several chunks use
// (@chaoskit/core and its dependencies) sits in shared chunks, each module once, so that the
// process holds one @chaoskit/core whatever it loads. The directory needs no node_modules for
// what every run does. Two optional peers stay outside, found in node_modules when installed:
// ECharts (`chaoskit report`'s charts) and @chaoskit/telemetry (traces and metrics: the
// OpenTelemetry SDK and its exporters, D164). The single file (single.mjs) builds both in.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  activityPackages,
  builtIn,
  builtInText,
  clientNodeUsed,
  commonOptions,
  home,
  httpRequired,
  summary,
  writeNotices,
  zodEnglishOnly,
} from './plugins.mjs';

const outdir = join(home, 'dist', 'bundle');

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { chaoskit: join(home, 'dist', 'bin.js') },
  outdir,
  ...commonOptions,
  splitting: true,
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  // Dependencies written as CommonJS call require() for Node's built-ins: an ESM chunk has none.
  banner: {
    js: "import { createRequire as __chaoskitRequire } from 'node:module'; const require = __chaoskitRequire(import.meta.url);",
  },
  define: builtInText(),
  external: ['echarts', 'echarts/*', 'zrender', 'zrender/*', '@chaoskit/telemetry'],
  plugins: [builtIn, clientNodeUsed, httpRequired, zodEnglishOnly],
});
writeNotices(result.metafile, outdir);
process.stderr.write(
  `bundle: dist/bundle/ ${summary(result.metafile)}, ${activityPackages.length} activity packages built in\n`,
);
