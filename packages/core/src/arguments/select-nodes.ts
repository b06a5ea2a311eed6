import { makeRandom } from './random.js';

export interface NodeLike {
  metadata?: { name?: string };
}

export interface HostingPod {
  spec?: { nodeName?: string };
}

export interface NodeSelectionOptions {
  /** Up to this many distinct random nodes when ≥ 1. */
  count?: number | null;
  /** Only the first node, whatever else is asked. */
  first?: boolean;
  /** Every node. */
  all?: boolean;
  /** One random node. */
  rand?: boolean;
  /** When given, keep only nodes that host at least one of these pods. */
  hostingPods?: ReadonlyArray<HostingPod>;
  seed?: number;
}

export interface NodeSelection<N> {
  selected: N[];
  /** Present when the choice was random: pass it back as `seed` to repeat the run. */
  seed?: number;
}

/**
 * The node choice of 0.25.1's node activities, with D1 and D3 (docs/decisions.md): no node is
 * picked twice and `all` means all.
 * Precedence: first, all, rand (one node), count ≥ 1 (random nodes), else the first node.
 * An empty result is returned as such; callers decide whether that is a failure.
 */
export function selectNodes<N extends NodeLike>(
  nodes: readonly N[],
  options: NodeSelectionOptions = {},
): NodeSelection<N> {
  const seen = new Set<unknown>();
  // Nodes are unique by name; a node without one is unique by identity.
  let candidates = nodes.filter((node) => {
    const id = node.metadata?.name ?? node;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  if (options.hostingPods) {
    const hosts = new Set(options.hostingPods.map((pod) => pod.spec?.nodeName).filter(Boolean));
    candidates = candidates.filter((node) => hosts.has(node.metadata?.name));
  }

  const { count } = options;
  if (options.first) return { selected: candidates.slice(0, 1) };
  if (options.all) return { selected: candidates };
  if (options.rand || (typeof count === 'number' && count >= 1)) {
    const random = makeRandom(options.seed);
    return { selected: random.sample(candidates, options.rand ? 1 : (count as number)), seed: random.seed };
  }
  return { selected: candidates.slice(0, 1) };
}
