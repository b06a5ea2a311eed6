// What deploy warns of before it applies (D165, D166), from the nodes a cluster answers with: the
// local cluster's kwok and real nodes, and a cluster of one's own.
import { describe, expect, it } from 'vitest';
import { parseReference } from '../image/reference.js';
import { type NodeView, placementWarnings } from './placement.js';

const kwok = (name: string): NodeView => ({ metadata: { name, labels: { type: 'kwok' } } });
const real = (name: string, images: string[] = []): NodeView => ({
  metadata: { name, labels: { 'chaoskit.io/real-node': 'true', type: 'real' } },
  spec: { taints: [{ key: 'chaoskit.io/real-node', value: 'true', effect: 'NoSchedule' }] },
  status: { images: images.map((n) => ({ names: [n] })) },
});
const RUNNER = 'chaoskit.local/runner:1.2.3';
const warnings = (
  nodes: NodeView[],
  image = RUNNER,
  more: { nodeSelector?: Record<string, string>; tolerate?: string[] } = {},
) =>
  placementWarnings(nodes, {
    image: parseReference(image)!,
    imageText: image,
    nodeSelector: more.nodeSelector ?? {},
    tolerate: more.tolerate ?? [],
  });

describe('placementWarnings', () => {
  it('says nothing when a node that can run the pod holds the image', () => {
    expect(warnings([kwok('kwok-node-0'), real('real-node-0', [RUNNER])])).toEqual([]);
  });

  it('names the nodes that cannot run the pod and why, when none can', () => {
    expect(
      warnings([
        kwok('kwok-node-0'),
        kwok('kwok-node-1'),
        {
          metadata: { name: 'gpu-0' },
          spec: { taints: [{ key: 'gpu', value: 'a100', effect: 'NoSchedule' }] },
        },
        { metadata: { name: 'old-0' }, spec: { unschedulable: true } },
      ]),
    ).toEqual([
      'no node of the cluster can run the pod, which would stay Pending: kwok-node-0, kwok-node-1: kwok fakes its pods (type=kwok): nothing runs there; gpu-0: tainted gpu=a100:NoSchedule (--tolerate gpu); old-0: cordoned',
    ]);
    expect(warnings([real('real-node-0', [RUNNER])], RUNNER, { nodeSelector: { zone: 'a' } })).toEqual([
      'no node of the cluster can run the pod, which would stay Pending: real-node-0: not labelled zone=a (--node-selector)',
    ]);
  });

  it('warns that a .local image no node holds cannot be pulled, and what to do', () => {
    const [line] = warnings([kwok('kwok-node-0'), real('real-node-0', ['chaoskit.local/runner:1.0.0'])]);
    expect(line).toMatch(
      /^no node that can run the pod holds the image chaoskit\.local\/runner:1\.2\.3, and no registry serves a \.local name: .*chaoskit-cluster import <archive>.*chaoskit image build --push/,
    );
    expect(warnings([real('real-node-0', [RUNNER]), real('real-node-1')])).toEqual([
      expect.stringMatching(/^only real-node-0 of the 2 nodes that can run the pod holds the image/),
    ]);
  });

  it("leaves an image of a registry to the nodes' pulls", () => {
    expect(warnings([real('real-node-0')], 'ghcr.io/acme/chaoskit-runner:1.2.3')).toEqual([]);
  });
});
