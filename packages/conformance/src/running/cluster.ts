import { type LocalCluster, REAL_NODE_LABEL } from '@chaoskit/cluster';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { ClusterInfo } from '../case-context.js';

/** The image the scenarios on running containers use on a user's cluster, unless told another. */
export const DEFAULT_TOOLBOX_IMAGE = 'docker.io/library/busybox:1.37';

const REAL_PLACEMENT = {
  nodeSelector: { [REAL_NODE_LABEL]: 'true' },
  tolerations: [{ key: REAL_NODE_LABEL, operator: 'Exists', effect: 'NoSchedule' }],
};

/** The local provider's real nodes, as the scenarios on running containers see them. */
export function runningOn(local: LocalCluster): Pick<ClusterInfo, 'running' | 'noRunning'> {
  if (local.realNodes.length === 0 || !local.images)
    return { noRunning: local.realNodesUnavailable ?? 'the local cluster was started without real nodes' };
  return {
    running: {
      nodes: local.realNodes,
      image: local.images.toolbox,
      ...REAL_PLACEMENT,
    },
  };
}

/** A local cluster as the cases see it: the audit log, kwok's nodes and pod log, its real nodes. */
export function localClusterInfo(local: LocalCluster, kc: KubeConfig): ClusterInfo {
  return {
    provider: 'local',
    kc,
    server: local.server,
    caFile: local.credentials.caFile,
    auditLogPath: local.auditLogPath,
    fakeNodes: true,
    podLogFile: local.podLogFile,
    ...runningOn(local),
  };
}

/**
 * A user's cluster: its Ready, schedulable, untainted nodes that kwok does not fake run the pods,
 * from `image` (a busybox any cluster can pull by default; --toolbox-image names another). A
 * chaoskit local cluster reached through its kubeconfig has real nodes: those, tolerating their
 * taint.
 */
export async function runningOnCluster(
  kc: KubeConfig,
  image: string,
): Promise<Pick<ClusterInfo, 'running' | 'noRunning'>> {
  const ready = (await kc.makeApiClient(CoreV1Api).listNode()).items.filter(
    (n) =>
      n.metadata?.annotations?.['kwok.x-k8s.io/node'] === undefined &&
      !n.spec?.unschedulable &&
      n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  const names = (nodes: typeof ready) => nodes.map((n) => n.metadata!.name!).sort();
  const real = ready.filter((n) => n.metadata?.labels?.[REAL_NODE_LABEL] === 'true');
  if (real.length > 0) return { running: { nodes: names(real), image, ...REAL_PLACEMENT } };
  const open = ready.filter((n) => !n.spec?.taints?.some((t) => t.effect !== 'PreferNoSchedule'));
  if (open.length === 0)
    return { noRunning: 'the cluster has no Ready, schedulable, untainted node that is not a kwok node' };
  return { running: { nodes: names(open), image } };
}
