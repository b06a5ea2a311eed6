// The local cluster's fake nodes: created through the apiserver, run by kwok.
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { type ProcessGroup, waitFor } from '../host/processes.js';
import type { NodeSpec, StartOptions } from '../types.js';

/** Creates the kwok nodes `options` asks for (two by default) and waits until kwok has them Ready. */
export async function createKwokNodes(
  core: CoreV1Api,
  group: ProcessGroup,
  options: StartOptions,
): Promise<string[]> {
  const nodeSpecs = nodeList(options);
  for (const spec of nodeSpecs) {
    await core.createNode({ body: nodeBody(spec, options.nodeLabels) });
  }
  const nodes = nodeSpecs.map((s) => s.name);
  await waitFor(
    'kwok nodes Ready',
    'kwok',
    group,
    async () => {
      const list = await core.listNode();
      const ready = list.items.filter(
        (n) => isReady(n) && !n.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready'),
      );
      return ready.length >= nodes.length;
    },
    60_000,
  );
  return nodes;
}

function nodeList(options: StartOptions): Array<Required<Pick<NodeSpec, 'name'>> & NodeSpec> {
  const given = options.nodes ?? 2;
  const specs: NodeSpec[] = typeof given === 'number' ? Array.from({ length: given }, () => ({})) : given;
  return specs.map((s, i) => ({ ...s, name: s.name ?? `kwok-node-${i}` }));
}

function nodeBody(spec: NodeSpec & { name: string }, common: Record<string, string> = {}): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: {
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
        ...common,
        ...spec.labels,
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake' },
    },
  };
}

function isReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
