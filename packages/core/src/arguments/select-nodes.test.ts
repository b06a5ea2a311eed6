import { describe, expect, it } from 'vitest';
import { type NodeLike, type NodeSelectionOptions, selectNodes } from './select-nodes.js';

const node = (name: string): NodeLike => ({ metadata: { name } });
const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'].map(node);
const names = (list: NodeLike[]) => list.map((n) => n.metadata?.name);
const onNode = (nodeName?: string) => ({ spec: nodeName === undefined ? {} : { nodeName } });

describe('selectNodes: modes', () => {
  it.each<[string, NodeSelectionOptions, string[]]>([
    ['no options → the first node', {}, ['n1']],
    ['count null → the first node', { count: null }, ['n1']],
    ['count 0 → the first node', { count: 0 }, ['n1']],
    ['count negative → the first node', { count: -2 }, ['n1']],
    ['all → every node', { all: true }, ['n1', 'n2', 'n3', 'n4', 'n5']],
    ['all ignores count', { all: true, count: 2 }, ['n1', 'n2', 'n3', 'n4', 'n5']],
    ['first wins over all', { first: true, all: true }, ['n1']],
    ['first wins over count', { first: true, count: 3 }, ['n1']],
  ])('%s', (_label, options, expected) => {
    const result = selectNodes(nodes, options);
    expect(names(result.selected)).toEqual(expected);
    expect(result.seed).toBeUndefined();
  });

  it('rand → one random node, seed reported', () => {
    const result = selectNodes(nodes, { rand: true, seed: 77 });
    expect(result.selected).toHaveLength(1);
    expect(nodes).toContain(result.selected[0]);
    expect(result.seed).toBe(77);
  });

  it('rand wins over count', () => {
    expect(selectNodes(nodes, { rand: true, count: 3, seed: 1 }).selected).toHaveLength(1);
  });

  it('rand picks different nodes across seeds', () => {
    const picked = new Set(
      Array.from({ length: 30 }, (_, seed) => selectNodes(nodes, { rand: true, seed }).selected[0]),
    );
    expect(picked.size).toBeGreaterThan(2);
  });

  it('count → that many distinct random nodes', () => {
    for (let seed = 0; seed < 30; seed++) {
      const { selected } = selectNodes(nodes, { count: 3, seed });
      expect(selected).toHaveLength(3);
      expect(new Set(selected).size).toBe(3);
    }
  });

  it('count above the number of nodes → every node once, without replacement', () => {
    const { selected } = selectNodes(nodes, { count: 12, seed: 5 });
    expect([...names(selected)].sort()).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
  });

  it('same seed → same nodes; no seed → one drawn and reported', () => {
    const drawn = selectNodes(nodes, { count: 2 });
    expect(typeof drawn.seed).toBe('number');
    expect(selectNodes(nodes, { count: 2, seed: drawn.seed }).selected).toEqual(drawn.selected);
  });
});

describe('selectNodes: empty and dedupe', () => {
  it.each<NodeSelectionOptions>([{}, { all: true }, { rand: true }, { count: 2 }, { first: true }])(
    'no nodes → empty, not an error (%j)',
    (options) => {
      expect(selectNodes([], options).selected).toEqual([]);
    },
  );

  it('a node listed twice appears once', () => {
    const twice = [node('a'), node('b'), node('a')];
    expect(names(selectNodes(twice, { all: true }).selected)).toEqual(['a', 'b']);
    expect(names(selectNodes(twice, { count: 5, seed: 3 }).selected).sort()).toEqual(['a', 'b']);
  });
});

describe('selectNodes: hostingPods', () => {
  it('keeps only nodes hosting a pod, each once, in node order', () => {
    const pods = [onNode('n4'), onNode('n2'), onNode('n4'), onNode('n4'), onNode(), {}];
    expect(names(selectNodes(nodes, { all: true, hostingPods: pods }).selected)).toEqual(['n2', 'n4']);
  });

  it('first mode takes the first hosting node', () => {
    expect(names(selectNodes(nodes, { hostingPods: [onNode('n3'), onNode('n5')] }).selected)).toEqual(['n3']);
  });

  it('random picks come from hosting nodes only, without duplicates', () => {
    const pods = [onNode('n2'), onNode('n2'), onNode('n2'), onNode('n5')];
    for (let seed = 0; seed < 20; seed++) {
      const picked = names(selectNodes(nodes, { count: 3, hostingPods: pods, seed }).selected);
      expect([...picked].sort()).toEqual(['n2', 'n5']);
    }
  });

  it('no pods → no nodes', () => {
    expect(selectNodes(nodes, { all: true, hostingPods: [] }).selected).toEqual([]);
  });

  it('pods on unknown nodes → no nodes', () => {
    expect(selectNodes(nodes, { hostingPods: [onNode('elsewhere')] }).selected).toEqual([]);
  });
});
