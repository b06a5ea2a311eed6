// An image archive imported into real nodes: into each node's containerd (the namespace the
// kubelet's runtime reads, k8s.io), and then until every node reports it among its images
// (status.images, written at the kubelet's next status report): a pod that names it is placed and
// started as soon as that returns, and `chaoskit deploy`'s check of what the nodes hold sees it.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { containerdSocket, nodeDir } from './configs.js';
import { run } from './run.js';

/** A real node: its name and its containerd's socket. */
export interface ImportTarget {
  name: string;
  socket: string;
}

/** The real nodes of the local cluster in `clusterDir` whose containerd runs: the nodes/ it made. */
export async function realNodesIn(clusterDir: string): Promise<ImportTarget[]> {
  const names = await readdir(join(clusterDir, 'nodes')).catch(() => [] as string[]);
  return names
    .map((name) => ({ name, socket: containerdSocket(nodeDir(clusterDir, name)) }))
    .filter((node) => existsSync(node.socket))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** How long the nodes get to report an image: two of their 10 s status reports, and slack. */
const REPORTED_WITHIN_MS = 60_000;

/**
 * Imports `archive` (OCI or docker format) into every node, and waits until each reports the
 * images it held. Returns their names (`chaoskit.local/runner:0.1.0`).
 */
export async function importArchive(
  kc: KubeConfig,
  nodes: readonly ImportTarget[],
  archive: string,
): Promise<string[]> {
  const names = new Set<string>();
  for (const node of nodes) {
    const out = await run('ctr', [
      '--address',
      node.socket,
      '--namespace',
      'k8s.io',
      'images',
      'import',
      archive,
    ]);
    // ctr says `unpacking <name> (sha256:…)...done` for each image of the archive.
    for (const [, name] of out.matchAll(/^unpacking (\S+) \(/gm)) names.add(name!);
  }
  if (names.size === 0) throw new Error(`ctr images import ${archive}: no image was in it`);
  const core = kc.makeApiClient(CoreV1Api);
  const deadline = Date.now() + REPORTED_WITHIN_MS;
  for (const node of nodes) {
    for (;;) {
      const reported = new Set(
        ((await core.readNode({ name: node.name })).status?.images ?? []).flatMap((i) => i.names ?? []),
      );
      if ([...names].every((n) => reported.has(n))) break;
      if (Date.now() > deadline)
        throw new Error(
          `node ${node.name} holds ${[...names].join(', ')} but its kubelet did not report it within ${REPORTED_WITHIN_MS / 1000} s`,
        );
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return [...names];
}
