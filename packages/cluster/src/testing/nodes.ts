// A kwok node of a test file's own: tainted, so that only pods that tolerate the taint land on it
// (the shared cluster's other files must not lose pods when the test deletes it).
import { CoreV1Api, type KubeConfig, type V1Toleration } from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';

export interface OwnNode {
  name: string;
  /** The toleration a pod needs to land on the node. */
  toleration: V1Toleration;
}

/**
 * Node `name`, tainted with `taintKey`, made before the tests of the file that calls it (at its
 * top level) and removed after them.
 */
export function ownKwokNode(kc: KubeConfig, name: string, taintKey: string): OwnNode {
  const core = kc.makeApiClient(CoreV1Api);
  beforeAll(async () => {
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
  });
  afterAll(async () => {
    await core.deleteNode({ name }).catch(() => undefined);
  });
  return { name, toleration: { key: taintKey, operator: 'Equal', value: 'true', effect: 'NoSchedule' } };
}
