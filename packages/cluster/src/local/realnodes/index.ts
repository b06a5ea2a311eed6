import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreV1Api, DiscoveryV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { Binaries } from '../../host/binaries.js';
import { ensureKubeRouter } from '../../host/binaries.js';
import type { ProgressSink } from '../../host/cache.js';
import { ProcessGroup, waitFor } from '../../host/processes.js';
import type { NodeImages } from '../../types.js';
import type { Pki } from '../pki.js';
import { startApiProxy } from './api-proxy.js';
import { ensureImages } from './images.js';
import { importArchive } from './import.js';
import { claimSlot, createNetwork, removeNetwork } from './network.js';
import { ctr, prepareNode, type RunningNode, startAgent, startContainerd } from './node.js';
import { API_PROXY_PORT, type NetworkPlan, networkPlan, REAL_NODE_LABEL } from './plan.js';
import { realNodeProblems } from './preflight.js';
import { run } from './run.js';
import { killPodsAndShims } from './teardown.js';

export type { NodeImages };
export { REAL_NODE_LABEL };

/** What real nodes need built, or why they cannot run here (one line). */
export type RealNodeKit =
  | { kubeRouter: string; images: Awaited<ReturnType<typeof ensureImages>> }
  | { unavailable: string };

/**
 * Checks the machine and builds what real nodes need (kube-router, the images), before anything
 * starts. Where the machine cannot run them, says why in one line instead of failing.
 */
export async function prepareRealNodes(progress: ProgressSink): Promise<RealNodeKit> {
  const problems = await realNodeProblems();
  if (problems.length) return { unavailable: problems.join('; ') };
  return { kubeRouter: await ensureKubeRouter(progress), images: await ensureImages(progress) };
}

export interface RealNodes {
  names: string[];
  images: NodeImages;
  plan: NetworkPlan;
  /** Imports an image archive (OCI or docker) into every node's containerd, until each reports it. */
  importImage(archive: string): Promise<void>;
  /** Kills every process the nodes started, removes their mounts, cgroups, namespaces, links and routes. */
  stop(): Promise<void>;
}

interface StartRealNodes {
  dir: string;
  count: number;
  kit: Exclude<RealNodeKit, { unavailable: string }>;
  bin: Binaries;
  pki: Pki;
  caFile: string;
  apiPort: number;
  kc: KubeConfig;
  env: NodeJS.ProcessEnv;
}

export async function startRealNodes(o: StartRealNodes): Promise<RealNodes> {
  const plan = networkPlan(await claimSlot(), o.count);
  const group = new ProcessGroup(o.dir);
  const running: RunningNode[] = [];
  let proxy: { close(): Promise<void> } | undefined;
  let stopped = false;
  const teardown = () => {
    group.killNow();
    killPodsAndShims(
      running.flatMap((n) => n.cgroups),
      running.map((n) => n.paths.socket),
    );
    removeNetwork(plan);
  };
  // A test run that exits without stop() still leaves nothing behind.
  const onExit = () => {
    if (!stopped) teardown();
  };
  process.once('exit', onExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    await group.stop();
    await proxy?.close();
    teardown();
  };
  try {
    await createNetwork(plan);
    proxy = await startApiProxy(plan.hostIp, API_PROXY_PORT, o.apiPort);
    await kubernetesEndpoints(o.kc, plan);
    const env = {
      ...o.env,
      NO_PROXY: `${o.env.NO_PROXY},${plan.hostIp}`,
      no_proxy: `${o.env.no_proxy},${plan.hostIp}`,
    };
    const agents = { kubelet: o.bin.kubelet, kubeProxy: o.bin.kubeProxy, kubeRouter: o.kit.kubeRouter };
    const prepared = await Promise.all(
      plan.nodes.map((node) =>
        prepareNode(o.dir, plan, node, o.kit.images.refs.pause, {
          caFile: o.caFile,
          clientCaFile: o.pki.clientCaFile,
          kubeletToken: o.pki.agents.kubelets[node.name]!,
          kubeProxyToken: o.pki.agents.kubeProxy,
          kubeRouterToken: o.pki.agents.kubeRouter,
        }),
      ),
    );
    await Promise.all(
      plan.nodes.map(async (node, i) => {
        const { paths, kubeconfigs } = prepared[i]!;
        await mkdir(join(paths.dir, 'pod-logs'), { recursive: true });
        const n = await startContainerd(group, node, paths, env);
        running.push(n);
        for (const archive of o.kit.images.archives) await ctr(paths, 'images', 'import', archive);
        startAgent(group, 'kubelet', n, agents, env, kubeconfigs.kubelet);
        startAgent(group, 'kube-proxy', n, agents, env);
      }),
    );
    const core = o.kc.makeApiClient(CoreV1Api);
    const names = plan.nodes.map((n) => n.name);
    await waitFor(
      `${names.length} real node(s) Ready`,
      `kubelet-${names[0]}`,
      group,
      async () => {
        const nodes = await core.listNode({ labelSelector: `${REAL_NODE_LABEL}=true` });
        return (
          nodes.items.filter((n) =>
            n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          ).length === names.length
        );
      },
      120_000,
    );
    for (const n of running)
      startAgent(group, 'kube-router', n, agents, env, prepared[n.plan.index]!.kubeconfigs.kubeRouter);
    // The enforcer is ready once its chains hook the node's traffic.
    for (const n of running)
      await waitFor(
        `kube-router's firewall on ${n.plan.name}`,
        `kube-router-${n.plan.name}`,
        group,
        () =>
          run('nsenter', [`--net=/run/netns/${n.plan.netns}`, 'iptables', '-S', 'FORWARD']).then((rules) =>
            rules.includes('KUBE-ROUTER-FORWARD'),
          ),
        60_000,
      );
    const importImage = async (archive: string) => {
      await importArchive(
        o.kc,
        running.map((n) => ({ name: n.plan.name, socket: n.paths.socket })),
        archive,
      );
    };
    return { names, images: o.kit.images.refs, plan, importImage, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The `kubernetes` Service's endpoint, as the apiserver's reconciler would write it (the local
 * apiserver runs without one, its address being loopback): the host end of the slot's link.
 */
async function kubernetesEndpoints(kc: KubeConfig, plan: NetworkPlan): Promise<void> {
  await kc.makeApiClient(DiscoveryV1Api).createNamespacedEndpointSlice({
    namespace: 'default',
    body: {
      metadata: { name: 'kubernetes', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [plan.hostIp], conditions: { ready: true } }],
      ports: [{ name: 'https', port: API_PROXY_PORT, protocol: 'TCP' }],
    },
  });
}
