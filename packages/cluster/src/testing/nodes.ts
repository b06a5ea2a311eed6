// A kwok node of a test's own: tainted, so that only pods that tolerate the taint land on it
// (the shared cluster's other files must not lose pods when the test deletes it).
import { CoreV1Api, type KubeConfig, type V1Toleration } from '@kubernetes/client-node';

export interface OwnNode {
  name: string;
  /** The toleration a pod needs to land on the node. */
  toleration: V1Toleration;
  remove(): Promise<void>;
}

export async function ownKwokNode(kc: KubeConfig, name: string, taintKey: string): Promise<OwnNode> {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNode({
    body: {
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, type: 'kwok' },
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
      },
      spec: { taints: [{ key: taintKey, value: 'true', effect: 'NoSchedule' }] },
    },
  });
  return {
    name,
    toleration: { key: taintKey, operator: 'Equal', value: 'true', effect: 'NoSchedule' },
    remove: () =>
      core.deleteNode({ name }).then(
        () => undefined,
        () => undefined,
      ),
  };
}
