// Run by each package's build before tsc: removes what tsc wrote into dist/ for a source that
// is no longer in src/ (moved or deleted). tsc never removes an output, so a tree built before a
// move would otherwise keep, and pack, modules nothing imports and source maps of missing files.
// Only tsc's outputs are touched (.js, .d.ts and their maps); what other steps write into dist/
// (the runner's bundle and single file) stays.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUT = /\.(d\.ts|js)(\.map)?$/;
const SOURCES = ['.ts', '.mts', '.tsx'];

function sweep(dist, src) {
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist, { withFileTypes: true })) {
    const path = join(dist, entry.name);
    if (entry.isDirectory()) {
      sweep(path, join(src, entry.name));
      continue;
    }
    if (!OUTPUT.test(entry.name)) continue;
    const base = join(src, entry.name.replace(OUTPUT, ''));
    if (!SOURCES.some((ext) => existsSync(base + ext))) rmSync(path);
  }
}

sweep('dist', 'src');
