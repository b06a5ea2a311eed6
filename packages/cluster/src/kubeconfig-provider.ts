import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { applyCrds, meshCrds, meshOption } from './istio/crds.js';
import type { Cluster, StartOptions } from './types.js';

/**
 * A user's own cluster. It is never disposable, so it is used only when the context is named
 * explicitly: a test run must not land on whatever the current context happens to be.
 */
export async function startFromKubeconfig(options: StartOptions): Promise<Cluster> {
  if (!options.context) {
    throw new Error(
      "the kubeconfig provider needs an explicit context (options.context / --context): chaoskit will not pick a user's current context on its own",
    );
  }
  const kc = new KubeConfig();
  const path =
    options.kubeconfigPath ??
    process.env.KUBECONFIG?.split(delimiter)[0] ??
    join(homedir(), '.kube', 'config');
  if (!existsSync(path)) throw new Error(`kubeconfig ${path} does not exist`);
  kc.loadFromFile(path);
  if (!kc.getContextObject(options.context)) {
    throw new Error(
      `context '${options.context}' is not in ${path} (contexts: ${kc
        .getContexts()
        .map((c) => c.name)
        .join(', ')})`,
    );
  }
  kc.setCurrentContext(options.context);
  // A user's cluster gets CRDs only when asked explicitly.
  const meshWanted = meshOption(options.mesh, false);
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const crds = meshWanted ? await meshCrds(meshWanted, progress) : undefined;
  const mesh = crds ? { source: crds.source, crds: await applyCrds(kc, crds.path) } : undefined;
  // A copy whose current context is the named one, so tools given the path agree with us.
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-kubeconfig-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const kubeconfig = kc.exportConfig();
  await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
  const stop = () => rm(dir, { recursive: true, force: true });
  return {
    provider: 'kubeconfig',
    kubeconfig,
    kubeconfigPath,
    context: options.context,
    server: kc.getCurrentCluster()?.server ?? '',
    ...(mesh ? { mesh } : {}),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
