import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { applyCrds, meshCrds, meshOption } from './istio/crds.js';
import { DEFAULT_ISTIOD_IMAGE, ISTIOD_XDS_NODE_PORT, installIstiod } from './k3s-istiod.js';
import type { Cluster, StartOptions } from './types.js';

export const DEFAULT_K3S_IMAGE = 'rancher/k3s:v1.33.5-k3s1';

/** Thrown when no container engine is reachable; tests that need k3s skip with its message. */
export class NoContainerEngine extends Error {
  override readonly name = 'NoContainerEngine';
}

/**
 * The packages the k3s provider loads, only when it is used: optional peer dependencies of
 * `@chaoskit/cluster`, so that users of the local and kubeconfig providers do not install
 * testcontainers and what it pulls in (ssh2, cpu-features, node-gyp).
 */
export const K3S_PACKAGES = ['testcontainers', '@testcontainers/k3s'] as const;

const K3S_PACKAGES_HINT = `the k3s provider needs the optional packages testcontainers and @testcontainers/k3s: npm install ${K3S_PACKAGES.join(' ')}`;

/** Thrown by the k3s provider when testcontainers or @testcontainers/k3s is not installed. */
export class MissingK3sPackages extends Error {
  override readonly name = 'MissingK3sPackages';
  constructor(options?: ErrorOptions) {
    super(K3S_PACKAGES_HINT, options);
  }
}

/**
 * `MissingK3sPackages` when `err` says that one of `K3S_PACKAGES` cannot be found; otherwise
 * `err` itself (a missing dependency of theirs, or any other failure, is not hidden).
 */
export function k3sImportError(err: unknown): unknown {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  if (!notFound || typeof message !== 'string') return err;
  const missing = K3S_PACKAGES.some(
    (name) =>
      message.includes(`Cannot find package '${name}'`) || message.includes(`Cannot find module '${name}'`),
  );
  return missing ? new MissingK3sPackages({ cause: err }) : err;
}

// Dynamic imports: nothing else in this package loads testcontainers.
async function loadTestcontainers(): Promise<typeof import('testcontainers')> {
  try {
    return await import('testcontainers');
  } catch (err) {
    throw k3sImportError(err);
  }
}

async function loadK3sModule(): Promise<typeof import('@testcontainers/k3s')> {
  try {
    return await import('@testcontainers/k3s');
  } catch (err) {
    throw k3sImportError(err);
  }
}

/**
 * Whether the k3s provider can run here — its optional packages are installed and
 * testcontainers reaches a container engine — and if not, why. The reason is what a skipped
 * test prints.
 */
export async function containerEngineAvailable(): Promise<{ available: boolean; reason: string }> {
  let testcontainers: typeof import('testcontainers');
  try {
    testcontainers = await loadTestcontainers();
    await loadK3sModule();
  } catch (err) {
    if (err instanceof MissingK3sPackages) return { available: false, reason: err.message };
    throw err;
  }
  try {
    const client = await testcontainers.getContainerRuntimeClient();
    return { available: true, reason: `container engine: ${client.info.containerRuntime.host}` };
  } catch (err) {
    return {
      available: false,
      reason: `no container engine reachable (testcontainers: ${(err as Error).message.split('\n')[0]}); the k3s provider needs Docker or Podman`,
    };
  }
}

export async function startK3s(options: StartOptions): Promise<Cluster> {
  const { K3sContainer } = await loadK3sModule();
  const engine = await containerEngineAvailable();
  if (!engine.available) throw new NoContainerEngine(engine.reason);
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const meshWanted = meshOption(options.mesh, true);
  const crds = meshWanted ? await meshCrds(meshWanted, progress) : undefined;
  const k3s = new K3sContainer(options.image ?? DEFAULT_K3S_IMAGE);
  // istiod's xDS node port, published for proxyless clients on this machine.
  if (meshWanted?.istiod) k3s.withExposedPorts(ISTIOD_XDS_NODE_PORT);
  const container = await k3s.start();
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-k3s-'));
  try {
    const kubeconfig = container.getKubeConfig();
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const mesh = crds ? { source: crds.source, crds: await applyCrds(kc, crds.path) } : undefined;
    const istiod = meshWanted?.istiod
      ? await installIstiod({
          kc,
          image: meshWanted.istiodImage ?? DEFAULT_ISTIOD_IMAGE,
          xdsAddress: `${container.getHost()}:${container.getMappedPort(ISTIOD_XDS_NODE_PORT)}`,
          dir,
          progress,
        })
      : undefined;
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
      ...(istiod ? { istiod } : {}),
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    await container.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
