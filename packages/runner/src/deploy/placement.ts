// Where a deployed run's pod may land (D166): only on nodes that run containers. kwok fakes a
// kubelet — a pod there turns Running, and a Job's pod Succeeded, without anything running — so
// the pod refuses nodes kwok's convention labels `type=kwok` (kwok's documented fake nodes and the
// local cluster's); and it tolerates the taint of the local cluster's real nodes, which keeps pods
// written for kwok off them, so that on a local cluster with real nodes it lands there by itself.
// Before applying, deploy asks the nodes whether any of them can run the pod and holds its image
// (D165), and warns when none can.
import { type ImageReference, neverPulled, reportedName } from '../image/reference.js';

/** kwok's label of the nodes whose pods it fakes. */
export const FAKE_NODE_LABEL = { key: 'type', value: 'kwok' } as const;
/** The taint of @chaoskit/cluster's real nodes (its REAL_NODE_LABEL, NoSchedule). */
export const REAL_NODE_TAINT = 'chaoskit.io/real-node';

/** The pod's node affinity: never a node kwok fakes. */
export const runsContainers = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        {
          matchExpressions: [
            { key: FAKE_NODE_LABEL.key, operator: 'NotIn', values: [FAKE_NODE_LABEL.value] },
          ],
        },
      ],
    },
  },
};

/** The taint keys the pod tolerates: the real nodes', and those --tolerate names. */
export const toleratedKeys = (tolerate: readonly string[] = []): string[] => [
  ...new Set([REAL_NODE_TAINT, ...tolerate]),
];

/** What deploy reads of a node (a V1Node's fields). */
export interface NodeView {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean; taints?: Array<{ key: string; value?: string; effect: string }> };
  status?: { images?: Array<{ names?: string[] }> };
}

/** Why the pod cannot land on `node`, or undefined when it can. */
function excluded(
  node: NodeView,
  nodeSelector: Record<string, string>,
  tolerated: string[],
): string | undefined {
  const labels = node.metadata?.labels ?? {};
  if (labels[FAKE_NODE_LABEL.key] === FAKE_NODE_LABEL.value)
    return 'kwok fakes its pods (type=kwok): nothing runs there';
  const missing = Object.entries(nodeSelector).filter(([k, v]) => labels[k] !== v);
  if (missing.length)
    return `not labelled ${missing.map(([k, v]) => `${k}=${v}`).join(', ')} (--node-selector)`;
  if (node.spec?.unschedulable) return 'cordoned';
  const taint = node.spec?.taints?.find((t) => t.effect !== 'PreferNoSchedule' && !tolerated.includes(t.key));
  if (taint)
    return `tainted ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect} (--tolerate ${taint.key})`;
  return undefined;
}

/** Names, at most five, then how many more. */
const some = (names: string[]) =>
  names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');

/**
 * What deploy warns of, from the cluster's nodes: that no node can run the pod (each kind of
 * reason, with its nodes), or that none of those that can holds an image no registry serves.
 */
export function placementWarnings(
  nodes: readonly NodeView[],
  pod: {
    image: ImageReference;
    imageText: string;
    nodeSelector: Record<string, string>;
    tolerate: readonly string[];
  },
): string[] {
  const tolerated = toleratedKeys(pod.tolerate);
  const reasons = new Map<string, string[]>();
  const able: NodeView[] = [];
  for (const node of nodes) {
    const why = excluded(node, pod.nodeSelector, tolerated);
    if (why) reasons.set(why, [...(reasons.get(why) ?? []), node.metadata?.name ?? '?']);
    else able.push(node);
  }
  if (able.length === 0)
    return [
      `no node of the cluster can run the pod, which would stay Pending: ${
        nodes.length === 0
          ? 'the cluster has no node'
          : [...reasons].map(([why, names]) => `${some(names)}: ${why}`).join('; ')
      }`,
    ];
  if (!neverPulled(pod.image)) return [];
  const name = reportedName(pod.image);
  const holds = (node: NodeView) => node.status?.images?.some((i) => i.names?.includes(name)) ?? false;
  const holders = able.filter(holds).map((n) => n.metadata?.name ?? '?');
  const fix = `import it (chaoskit-cluster import <archive> on the local cluster, ctr -n k8s.io images import on a node of yours), or push it (chaoskit image build --push <registry>/<name>) and give --image`;
  if (holders.length === 0)
    return [
      `no node that can run the pod holds the image ${pod.imageText}, and no registry serves a .local name: its pod would wait on a pull that cannot succeed; ${fix}`,
    ];
  if (holders.length < able.length)
    return [
      `only ${some(holders)} of the ${able.length} nodes that can run the pod hold${holders.length === 1 ? 's' : ''} the image ${pod.imageText}: placed on another, its pod would wait on a pull that cannot succeed; ${fix}, or --node-selector a node that holds it`,
    ];
  return [];
}
