import { sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { containerEngineAvailable, NoContainerEngine } from './k3s-provider.js';
import { start } from './start.js';

const shared = sharedCluster();
const engine = await containerEngineAvailable();

describe('kubeconfig provider', () => {
  it('refuses to start unless the context is named', async () => {
    await expect(start({ provider: 'kubeconfig', kubeconfigPath: shared.kubeconfigPath })).rejects.toThrow(
      /needs an explicit context/,
    );
  });

  it('refuses a context that is not in the file', async () => {
    await expect(
      start({ provider: 'kubeconfig', kubeconfigPath: shared.kubeconfigPath, context: 'prod' }),
    ).rejects.toThrow(/context 'prod' is not in/);
  });

  it("attaches to the named context of a user's kubeconfig and leaves the cluster running on stop()", async () => {
    const cluster = await start({
      provider: 'kubeconfig',
      kubeconfigPath: shared.kubeconfigPath,
      context: shared.context,
    });
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    expect(kc.getCurrentContext()).toBe(shared.context);
    const nodes = await kc.makeApiClient(CoreV1Api).listNode();
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(shared.nodes));
    await cluster.stop();
    // The user's cluster is not ours to stop: it still answers, its nodes there (other test
    // files add and remove nodes of their own meanwhile).
    const after = await shared.kc.makeApiClient(CoreV1Api).listNode();
    expect(after.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(shared.nodes));
  });
});

describe('k3s provider', () => {
  it('says clearly that it needs a container engine when there is none', async () => {
    if (engine.available) return;
    const err = await start({ provider: 'k3s' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoContainerEngine);
    expect((err as Error).message).toMatch(/no container engine reachable/);
  });

  it.skipIf(!engine.available)(`starts k3s with the mesh CRDs (skipped: ${engine.reason})`, async () => {
    await using cluster = await start({ provider: 'k3s' });
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const nodes = await kc.makeApiClient(CoreV1Api).listNode();
    expect(nodes.items.length).toBeGreaterThan(0);
  });
});
