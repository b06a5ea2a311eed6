import type { LocalCluster } from '@chaoskit/cluster';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { ClusterInfo } from '../case-context.js';

/** The image the scenarios on running containers use on a user's cluster, unless told another. */
export const DEFAULT_TOOLBOX_IMAGE = 'docker.io/library/busybox:1.37';

const REAL_NODE_LABEL = 'chaoskit.io/real-node';

/** The local provider's real nodes, as the scenarios on running containers see them. */
export function runningOn(local: LocalCluster): Pick<ClusterInfo, 'running' | 'noRunning'> {
  if (local.realNodes.length === 0 || !local.images)
    return { noRunning: local.realNodesUnavailable ?? 'the local cluster was started without real nodes' };
  return {
    running: {
      nodes: local.realNodes,
      image: local.images.toolbox,
      nodeSelector: { [REAL_NODE_LABEL]: 'true' },
      tolerations: [{ key: REAL_NODE_LABEL, operator: 'Exists', effect: 'NoSchedule' }],
    },
  };
}

/**
 * A user's cluster: its Ready, schedulable nodes that kwok does not fake run the pods, from
 * `image` (a busybox any cluster can pull by default; --toolbox-image names another).
 */
export async function runningOnCluster(
  kc: KubeConfig,
  image: string,
): Promise<Pick<ClusterInfo, 'running' | 'noRunning'>> {
  const nodes = (await kc.makeApiClient(CoreV1Api).listNode()).items.filter(
    (n) =>
      n.metadata?.annotations?.['kwok.x-k8s.io/node'] === undefined &&
      !n.spec?.unschedulable &&
      n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  if (nodes.length === 0)
    return { noRunning: 'the cluster has no Ready, schedulable node that is not a kwok node' };
  return { running: { nodes: nodes.map((n) => n.metadata!.name!).sort(), image } };
}
