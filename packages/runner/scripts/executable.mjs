// `npm run single -w @chaoskit/runner`, after the runner's build: dist/single/chaoskit, the one
// file (D157), made from the build's script as `chaoskit image build` makes it (D165).
// --if-stale (the image's, the bench's and the tests' call): nothing to do when the file is newer
// than the script.
import { join } from 'node:path';
import { isStale, writeSingleFile } from '../dist/image/single-file.js';
import { home } from './plugins.mjs';

const script = join(home, 'dist', 'single', 'chaoskit.cjs');
const output = join(home, 'dist', 'single', 'chaoskit');
if (!process.argv.includes('--if-stale') || (await isStale(script, output))) {
  await writeSingleFile(script, output);
  process.stderr.write('single: dist/single/chaoskit\n');
}
