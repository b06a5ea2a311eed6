// istiod on the local provider: the time to build pilot-discovery, and the time from start()
// to a ready cluster with istiod (istiod's own part: CRDs, certificates, process, an xDS
// answer, its webhook refusing), against the same cluster without istiod.
//   node bench/istiod.mjs           warm: 3 starts of each; the build is timed only when
//                                   pilot-discovery is not in the cache yet
//   node bench/istiod.mjs --cold    also a cold build: an empty binary cache for istiod (the
//                                   control plane's binaries are reused) and an empty Go build
//                                   cache; the Go module cache is kept
// Numbers to report, not assertions.
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cold = process.argv.includes('--cold');
const runs = 3;
const progress = (l) => process.stderr.write(`${l}\n`);
const scratch = [];
if (cold) {
  // A cache holding everything but istiod: the other binaries and Istio's CRDs are linked in.
  const { cacheDir } = await import('../packages/cluster/dist/index.js');
  const warm = cacheDir();
  const cache = await mkdtemp(join(tmpdir(), 'chaoskit-bench-istiod-cache-'));
  await mkdir(join(cache, 'bin'));
  for (const name of await readdir(join(warm, 'bin')))
    if (!name.startsWith('istiod-') && !name.includes('.tmp-'))
      await symlink(join(warm, 'bin', name), join(cache, 'bin', name));
  for (const name of await readdir(warm))
    if (name.startsWith('istio-api-')) await symlink(join(warm, name), join(cache, name));
  const gocache = await mkdtemp(join(tmpdir(), 'chaoskit-bench-gocache-'));
  process.env.CHAOSKIT_CACHE = cache;
  process.env.GOCACHE = gocache;
  scratch.push(cache, gocache);
}
const { ensureIstiod, istiodMissing, start } = await import('../packages/cluster/dist/index.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

try {
  if (istiodMissing()) {
    const began = performance.now();
    await ensureIstiod(progress);
    console.log(
      `istiod build (${cold ? 'cold: empty Go build cache, modules kept' : 'not in the cache yet'}): ${s(performance.now() - began)}`,
    );
  } else {
    console.log('istiod build: cached (node bench/istiod.mjs --cold times a cold build)');
  }
  const plain = [];
  const withIstiod = [];
  const istiodPart = [];
  for (let i = 1; i <= runs; i++) {
    let began = performance.now();
    const bare = await start({ provider: 'local', nodes: 1, progress });
    plain.push(performance.now() - began);
    await bare.stop();
    began = performance.now();
    const cluster = await start({ provider: 'local', nodes: 1, mesh: 'istiod', progress });
    withIstiod.push(performance.now() - began);
    istiodPart.push(cluster.istiod.readyMs);
    console.log(
      `run ${i}: cluster ${s(plain.at(-1))}, cluster with istiod ${s(withIstiod.at(-1))} (istiod's part ${s(istiodPart.at(-1))})`,
    );
    await cluster.stop();
  }
  console.log(
    `istiod start, median of ${runs}: istiod's part ${s(median(istiodPart))}; cluster with istiod ${s(median(withIstiod))} against ${s(median(plain))} without`,
  );
} finally {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
}
