// Time from start() to a ready local cluster (nodes Ready, mesh CRDs Established).
//   node bench/cluster-start.mjs            warm: cached binaries, 3 runs
//   node bench/cluster-start.mjs --cold     cold: empty binary cache and Go build cache (builds
//                                           the control plane first; the Go module cache is kept)
// Numbers to report, not assertions.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cold = process.argv.includes('--cold');
const runs = cold ? 1 : 3;
const scratch = [];
if (cold) {
  for (const v of ['CHAOSKIT_CACHE', 'GOCACHE']) {
    const dir = await mkdtemp(join(tmpdir(), `chaoskit-bench-${v.toLowerCase()}-`));
    process.env[v] = dir;
    scratch.push(dir);
  }
}
const { start, missingBinaries } = await import('../packages/cluster/dist/index.js');
const building = missingBinaries().length > 0;
const seconds = [];
try {
  for (let i = 1; i <= runs; i++) {
    const began = performance.now();
    const cluster = await start({
      provider: 'local',
      nodes: 3,
      progress: (l) => process.stderr.write(`${l}\n`),
    });
    const s = (performance.now() - began) / 1000;
    seconds.push(s);
    console.log(
      `cluster start (${cold ? 'cold' : 'warm'}${building && i === 1 ? ', including the binary build' : ''}) run ${i}: ${s.toFixed(2)} s`,
    );
    await cluster.stop();
  }
} finally {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
}
seconds.sort((a, b) => a - b);
console.log(`median: ${seconds[Math.floor(seconds.length / 2)].toFixed(2)} s over ${runs} run(s)`);
