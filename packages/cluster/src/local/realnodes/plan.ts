// The addresses of a cluster's real nodes. Everything lives in 198.18.0.0/15, the range
// reserved for benchmarks (RFC 2544), so nothing collides with a real network:
//
//   198.19.0.0/16            Services (every cluster: ClusterIPs exist only in the nodes' rules)
//   198.18.128.0/17          kwok's pods (never routed: nothing runs there)
//   198.18.<8s>.0/24         slot s's link: the host end .1 (where pods reach the apiserver),
//                            node i at .<10+i>
//   198.18.<8s+1+i>.0/24     node i's pods
//
// A slot is one cluster with real nodes (16 at once on a machine); its nodes live in network
// namespaces of their own, joined by a bridge in the slot's namespace, with one veth to the host.

export const RANGE = '198.18.0.0/15';
export const SERVICE_CIDR = '198.19.0.0/16';
/** kwok's pod addresses (`--cidr`, its first address included). */
export const KWOK_POD_CIDR = '198.18.128.1/17';
export const SLOTS = 16;
export const MAX_REAL_NODES = 7;
/** Where the host end of a slot's link forwards to the apiserver. */
export const API_PROXY_PORT = 6443;
/** What real nodes are labelled with, and tainted with (only pods that tolerate it land there). */
export const REAL_NODE_LABEL = 'chaoskit.io/real-node';

export interface NodePlan {
  index: number;
  name: string;
  netns: string;
  ip: string;
  podCidr: string;
  /** The veth in the slot's namespace that joins this node to the bridge. */
  link: string;
}

export interface NetworkPlan {
  slot: number;
  /** The slot's own namespace, holding the bridge between the host and the nodes. */
  netns: string;
  /** The host end of the slot's link. */
  hostLink: string;
  hostIp: string;
  /** Every pod address of the slot (kube-proxy's --cluster-cidr). */
  clusterCidr: string;
  /** The metric of the host's unreachable route for RANGE: one per slot, removed by its stop. */
  metric: number;
  nodes: NodePlan[];
}

export function netnsName(slot: number): string {
  return `chaoskit-${slot}`;
}

export function networkPlan(slot: number, nodeCount: number): NetworkPlan {
  if (!Number.isInteger(slot) || slot < 0 || slot >= SLOTS)
    throw new RangeError(`slot ${slot} is not in 0..${SLOTS - 1}`);
  if (!Number.isInteger(nodeCount) || nodeCount < 1 || nodeCount > MAX_REAL_NODES)
    throw new RangeError(`realNodes must be a whole number from 1 to ${MAX_REAL_NODES}, not ${nodeCount}`);
  const base = slot * 8;
  const netns = netnsName(slot);
  return {
    slot,
    netns,
    hostLink: `ck${slot}`,
    hostIp: `198.18.${base}.1`,
    clusterCidr: `198.18.${base}.0/21`,
    metric: 4000 + slot,
    nodes: Array.from({ length: nodeCount }, (_, i) => ({
      index: i,
      name: `real-node-${i}`,
      netns: `${netns}-${i}`,
      ip: `198.18.${base}.${10 + i}`,
      podCidr: `198.18.${base + 1 + i}.0/24`,
      link: `n${i}`,
    })),
  };
}
