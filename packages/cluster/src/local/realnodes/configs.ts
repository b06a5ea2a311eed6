import { join } from 'node:path';
import { dump } from 'js-yaml';
import { API_PROXY_PORT, type NetworkPlan, type NodePlan, REAL_NODE_LABEL } from './plan.js';

// The configuration files of one real node's agents. Every path is under the node's directory:
// nothing is written to /var/lib, /etc or /run of the host.

export interface NodePaths {
  dir: string;
  socket: string;
  containerdConfig: string;
  cniConfDir: string;
  kubeletConfig: string;
  kubeletRoot: string;
  kubeProxyConfig: string;
  resolvConf: string;
  cgroupRoot: string;
}

/** A real node's directory, under the cluster's. */
export const nodeDir = (clusterDir: string, node: string): string => join(clusterDir, 'nodes', node);

/** The socket of the node's containerd, in its directory. */
export const containerdSocket = (nodeDir: string): string => join(nodeDir, 'containerd.sock');

export function nodePaths(nodeDir: string, plan: NetworkPlan, node: NodePlan): NodePaths {
  return {
    dir: nodeDir,
    socket: containerdSocket(nodeDir),
    containerdConfig: `${nodeDir}/containerd.toml`,
    cniConfDir: `${nodeDir}/cni`,
    kubeletConfig: `${nodeDir}/kubelet.yaml`,
    kubeletRoot: `${nodeDir}/kubelet`,
    kubeProxyConfig: `${nodeDir}/kube-proxy.yaml`,
    resolvConf: `${nodeDir}/resolv.conf`,
    cgroupRoot: `/chaoskit-${plan.slot}-${node.index}`,
  };
}

export function containerdConfig(p: NodePaths, sandboxImage: string): string {
  const q = JSON.stringify;
  return `version = 2
root = ${q(`${p.dir}/containerd/root`)}
state = ${q(`${p.dir}/containerd/state`)}
disabled_plugins = [
  "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper",
  "io.containerd.internal.v1.opt", "io.containerd.tracing.processor.v1.otlp",
  "io.containerd.internal.v1.tracing",
]
[grpc]
  address = ${q(p.socket)}
[ttrpc]
  address = ${q(`${p.socket}.ttrpc`)}
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${q(sandboxImage)}
  # Never below containerd's own score: where root lacks CAP_SYS_RESOURCE (a sandboxed CI), a
  # lower one (the kubelet asks -998 for sandboxes) fails every container.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = ${q(p.cniConfDir)}
`;
}

/** A bridge with host-local addresses from the node's pod range; pods route everything to it. */
export function cniConfig(p: NodePaths, node: NodePlan): string {
  return JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'chaoskit',
      plugins: [
        {
          type: 'bridge',
          bridge: 'cni0',
          isGateway: true,
          ipMasq: false,
          // A pod reaching itself through its Service comes back over the same port.
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: node.podCidr }]],
            routes: [{ dst: '0.0.0.0/0' }],
            dataDir: `${p.dir}/ipam`,
          },
        },
      ],
    },
    null,
    2,
  );
}

export function kubeletConfig(p: NodePaths, node: NodePlan, clientCaFile: string): string {
  return dump({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: node.ip,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    // Only holders of a certificate from the cluster's client CA (the apiserver) reach it.
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: false },
      x509: { clientCAFile: clientCaFile },
    },
    authorization: { mode: 'AlwaysAllow' },
    cgroupDriver: 'cgroupfs',
    cgroupRoot: p.cgroupRoot,
    containerRuntimeEndpoint: `unix://${p.socket}`,
    failSwapOn: false,
    resolvConf: p.resolvConf,
    podLogsDirectory: `${p.dir}/pod-logs`,
    // A busy CI disk must not evict the pods of a test; the images are never pulled again.
    evictionHard: {
      'memory.available': '50Mi',
      'nodefs.available': '1%',
      'imagefs.available': '1%',
      'nodefs.inodesFree': '1%',
    },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    serializeImagePulls: false,
    // Its own score as is: lowering it needs CAP_SYS_RESOURCE, which a sandboxed CI may lack.
    oomScoreAdj: 0,
    registerWithTaints: [{ key: REAL_NODE_LABEL, value: 'true', effect: 'NoSchedule' }],
    nodeStatusReportFrequency: '10s',
  });
}

export function kubeProxyConfig(kubeconfig: string, plan: NetworkPlan, node: NodePlan): string {
  return dump({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    hostnameOverride: node.name,
    bindAddress: node.ip,
    healthzBindAddress: '127.0.0.1:10256',
    metricsBindAddress: '127.0.0.1:10249',
    mode: 'iptables',
    oomScoreAdj: 0,
    clusterCIDR: plan.clusterCidr,
    // Zero leaves the kernel's conntrack settings alone: they are the host's, not the node's.
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
    iptables: { localhostNodePorts: false, syncPeriod: '30s', minSyncPeriod: '0s' },
  });
}

/** A kubeconfig for a node's agent: the apiserver through the slot's link, as pods reach it. */
export function agentKubeconfig(plan: NetworkPlan, caFile: string, token: string): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'chaoskit',
        // The apiserver's own certificate names `kubernetes`, not the link's address.
        cluster: {
          server: `https://${plan.hostIp}:${API_PROXY_PORT}`,
          'certificate-authority': caFile,
          'tls-server-name': 'kubernetes',
        },
      },
    ],
    users: [{ name: 'agent', user: { token } }],
    contexts: [{ name: 'chaoskit', context: { cluster: 'chaoskit', user: 'agent' } }],
    'current-context': 'chaoskit',
  });
}
