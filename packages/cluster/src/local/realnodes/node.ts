import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ProcessGroup, waitFor } from '../../host/processes.js';
import { createCgroupRoot } from './cgroups.js';
import {
  agentKubeconfig,
  cniConfig,
  containerdConfig,
  kubeletConfig,
  kubeProxyConfig,
  type NodePaths,
  nodeDir,
  nodePaths,
} from './configs.js';
import { type NetworkPlan, type NodePlan, REAL_NODE_LABEL, SERVICE_CIDR } from './plan.js';
import { run } from './run.js';

export interface NodeAgents {
  kubelet: string;
  kubeProxy: string;
  kubeRouter: string;
}

export interface NodeCredentials {
  caFile: string;
  clientCaFile: string;
  kubeletToken: string;
  kubeProxyToken: string;
  kubeRouterToken: string;
}

export interface RunningNode {
  plan: NodePlan;
  paths: NodePaths;
  cgroups: string[];
  /** The pid of containerd, whose mount namespace the node's agents share. */
  containerdPid: number;
}

// Mounted over the host's directories inside the node's own mount namespace: whatever
// containerd, the CNI plugins and the kubelet write there (pod network namespaces, shim
// sockets, /var/log/containers, IPAM caches) vanishes with the node instead of landing on the
// host. Mounts made in that namespace never propagate back to the host.
const PRIVATE_DIRS = ['/run', '/var/lib', '/var/log'];

export async function prepareNode(
  dir: string,
  plan: NetworkPlan,
  node: NodePlan,
  sandboxImage: string,
  creds: NodeCredentials,
) {
  const p = nodePaths(nodeDir(dir, node.name), plan, node);
  await mkdir(p.cniConfDir, { recursive: true });
  await mkdir(p.kubeletRoot, { recursive: true });
  await writeFile(p.containerdConfig, containerdConfig(p, sandboxImage));
  await writeFile(join(p.cniConfDir, '10-chaoskit.conflist'), cniConfig(p, node));
  await writeFile(p.kubeletConfig, kubeletConfig(p, node, creds.clientCaFile));
  await writeFile(p.resolvConf, '# chaoskit real node: no name server; nothing leaves the machine\n');
  const kubeconfig = (name: string, token: string) => {
    const path = join(p.dir, `${name}.kubeconfig`);
    return writeFile(path, agentKubeconfig(plan, creds.caFile, token), { mode: 0o600 }).then(() => path);
  };
  const kubeconfigs = {
    kubelet: await kubeconfig('kubelet', creds.kubeletToken),
    kubeProxy: await kubeconfig('kube-proxy', creds.kubeProxyToken),
    kubeRouter: await kubeconfig('kube-router', creds.kubeRouterToken),
  };
  await writeFile(p.kubeProxyConfig, kubeProxyConfig(kubeconfigs.kubeProxy, plan, node));
  return { paths: p, kubeconfigs };
}

/** Starts containerd in the node's namespaces and waits until it answers. */
export async function startContainerd(
  group: ProcessGroup,
  plan: NodePlan,
  paths: NodePaths,
  env: NodeJS.ProcessEnv,
): Promise<RunningNode> {
  const cgroups = await createCgroupRoot(paths.cgroupRoot);
  const mounts = PRIVATE_DIRS.map((d) => `mount -t tmpfs -o mode=0755 chaoskit ${d}`).join(' && ');
  group.start(
    `containerd-${plan.name}`,
    'nsenter',
    [
      `--net=/run/netns/${plan.netns}`,
      '--',
      'unshare',
      '--mount',
      '--propagation',
      'slave',
      '--',
      'sh',
      '-c',
      `${mounts} && exec containerd --config ${paths.containerdConfig}`,
    ],
    env,
  );
  const name = `containerd-${plan.name}`;
  await waitFor(
    `${name} to answer`,
    name,
    group,
    async () => existsSync(paths.socket) && (await ctr(paths, 'version').then(() => true)),
    60_000,
  );
  return { plan, paths, cgroups, containerdPid: group.pidOf(name) };
}

export function ctr(paths: NodePaths, ...args: string[]): Promise<string> {
  return run('ctr', ['--address', paths.socket, '--namespace', 'k8s.io', ...args]);
}

/** The node agents chaoskit runs on a real node, beside its containerd. */
export type NodeAgent = 'kubelet' | 'kube-proxy' | 'kube-router';

/** Each agent's program, arguments and extra environment on `node`; `kubeconfig` is the agent's own. */
const AGENT_COMMANDS: Record<
  NodeAgent,
  (
    node: RunningNode,
    agents: NodeAgents,
    kubeconfig: string,
  ) => { command: string; args: string[]; env?: object }
> = {
  kubelet: (node, agents, kubeconfig) => ({
    command: agents.kubelet,
    args: [
      `--config=${node.paths.kubeletConfig}`,
      `--kubeconfig=${kubeconfig}`,
      `--root-dir=${node.paths.kubeletRoot}`,
      `--hostname-override=${node.plan.name}`,
      `--node-ip=${node.plan.ip}`,
      `--node-labels=${REAL_NODE_LABEL}=true,type=real`,
      '--v=1',
    ],
  }),
  'kube-proxy': (node, agents) => ({
    command: agents.kubeProxy,
    args: [`--config=${node.paths.kubeProxyConfig}`, '--v=1'],
  }),
  // kube-router's firewall only: the NetworkPolicy enforcer (iptables and ipset), no routing, no proxy.
  'kube-router': (node, agents, kubeconfig) => ({
    command: agents.kubeRouter,
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--hostname-override=${node.plan.name}`,
      '--run-firewall=true',
      '--run-router=false',
      '--run-service-proxy=false',
      '--run-loadbalancer=false',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--metrics-port=0',
      '--enable-ipv6=false',
      '--v=1',
    ],
    env: { NODE_NAME: node.plan.name },
  }),
};

/**
 * Runs a node agent in the node's network and mount namespaces (those of its containerd), as
 * `<agent>-<node>` of the group. `kubeconfig`: the agent's own (kube-proxy's is in its config).
 */
export function startAgent(
  group: ProcessGroup,
  agent: NodeAgent,
  node: RunningNode,
  agents: NodeAgents,
  env: NodeJS.ProcessEnv,
  kubeconfig = '',
): void {
  const { command, args, env: extra } = AGENT_COMMANDS[agent](node, agents, kubeconfig);
  group.start(
    `${agent}-${node.plan.name}`,
    'nsenter',
    [`--target=${node.containerdPid}`, '--net', '--mount', '--', command, ...args],
    { ...env, ...extra },
  );
}
