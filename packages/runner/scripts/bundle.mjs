// The bundled `chaoskit` command (D149), run by the runner's build after tsc: dist/bin.js and
// everything it imports, in dist/bundle/ — chaoskit.mjs, the entry, and the chunks it imports
// on demand. Every chaoskit activity package of the repository is built in, each its own chunk,
// imported only when an experiment names one of its modules; code that several chunks use
// (@chaoskit/core and its dependencies) sits in shared chunks, each module once, so that the
// process holds one @chaoskit/core whatever it loads. The directory needs no node_modules: the
// runner image is Node and this directory. Only ECharts stays outside (an optional peer,
// `chaoskit report`'s charts), found in node_modules when installed.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  activityPackages,
  builtIn,
  builtInText,
  clientNodeUsed,
  commonOptions,
  grpcBaseAsCommonJs,
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
  external: ['echarts', 'echarts/*', 'zrender', 'zrender/*'],
  plugins: [builtIn, clientNodeUsed, grpcBaseAsCommonJs, httpRequired, zodEnglishOnly],
});
writeNotices(result.metafile, outdir);
process.stderr.write(
  `bundle: dist/bundle/ ${summary(result.metafile)}, ${activityPackages.length} activity packages built in\n`,
);
