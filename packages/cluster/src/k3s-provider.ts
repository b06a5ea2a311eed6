import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { applyCrds, meshCrds, meshOption } from './mesh.js';
import type { Cluster, StartOptions } from './types.js';

export const DEFAULT_K3S_IMAGE = 'rancher/k3s:v1.33.5-k3s1';

/** Thrown when no container engine is reachable; tests that need k3s skip with its message. */
export class NoContainerEngine extends Error {
  override readonly name = 'NoContainerEngine';
}

/**
 * Whether testcontainers can reach a container engine, and if not, why. The reason is what a
 * skipped test prints.
 */
export async function containerEngineAvailable(): Promise<{ available: boolean; reason: string }> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const client = await getContainerRuntimeClient();
    return { available: true, reason: `container engine: ${client.info.containerRuntime.host}` };
  } catch (err) {
    return {
      available: false,
      reason: `no container engine reachable (testcontainers: ${(err as Error).message.split('\n')[0]}); the k3s provider needs Docker or Podman`,
    };
  }
}

export async function startK3s(options: StartOptions): Promise<Cluster> {
  const engine = await containerEngineAvailable();
  if (!engine.available) throw new NoContainerEngine(engine.reason);
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const meshWanted = meshOption(options.mesh, true);
  const crds = meshWanted ? await meshCrds(meshWanted, progress) : undefined;
  const { K3sContainer } = await import('@testcontainers/k3s');
  const container = await new K3sContainer(options.image ?? DEFAULT_K3S_IMAGE).start();
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-k3s-'));
  try {
    const kubeconfig = container.getKubeConfig();
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const mesh = crds ? { source: crds.source, crds: await applyCrds(kc, crds.path) } : undefined;
    const stop = async () => {
      await container.stop();
      await rm(dir, { recursive: true, force: true });
    };
    return {
      provider: 'k3s',
      kubeconfig,
      kubeconfigPath,
      context: kc.getCurrentContext(),
      server: kc.getCurrentCluster()?.server ?? '',
      ...(mesh ? { mesh } : {}),
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    await container.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
