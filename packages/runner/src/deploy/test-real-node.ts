// Test-only (left out of the build): a local cluster of its own with one real node, and the
// runner image (`npm run image`) built and imported into it — once per test file, as both take
// minutes. `local.realNodes` is empty where this machine cannot run real nodes (the reason in
// `realNodesUnavailable`); the image is then not built.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalCluster, start } from '@chaoskit/cluster';
import { KubeConfig } from '@kubernetes/client-node';
import { exec } from '../test-cli.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RealNodeCluster {
  local: LocalCluster;
  kc: KubeConfig;
  /** The image's reference, and `npm run image`'s last line (its size). */
  image: string;
  built: string;
}

export async function clusterWithImage(): Promise<RealNodeCluster> {
  const local = await start({ provider: 'local', nodes: 1, realNodes: 1, mesh: false });
  const kc = new KubeConfig();
  kc.loadFromString(local.kubeconfig);
  if (local.realNodes.length === 0) return { local, kc, image: '', built: '' };
  const built = await exec(process.execPath, [join(root, 'scripts/image.mjs')], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (built.code !== 0) throw new Error(`npm run image failed: ${built.stderr.slice(-4000)}`);
  const out = JSON.parse(built.stdout.trim().split('\n').at(-1) ?? '{}');
  await local.importImage(out.archive);
  return { local, kc, image: out.image, built: built.stderr.trim().split('\n').at(-1) ?? '' };
}
