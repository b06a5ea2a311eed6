import { describe, expect, it } from 'vitest';
import { extensionProblems, railsOf } from './rails.js';

describe('the rails of a run', () => {
  it('joins what the experiment and the command line allow; the command line share wins', () => {
    const extensions = [
      { name: 'other', anything: true },
      {
        name: 'chaoskit',
        allow_namespaces: ['kube-system'],
        max_pod_share: 0.5,
        protect_namespaces: ['pay'],
      },
    ];
    expect(railsOf(extensions, { allowNamespace: ['kube-public'], maxPodShare: 1 })).toEqual({
      allowNamespaces: ['kube-system', 'kube-public'],
      protectNamespaces: ['pay'],
      allowAllNodes: false,
      maxPodShare: 1,
    });
    expect(railsOf(extensions).maxPodShare).toBe(0.5);
    expect(railsOf(undefined, { allowAllNodes: true })).toEqual({
      allowNamespaces: [],
      protectNamespaces: [],
      allowAllNodes: true,
    });
  });

  it('checks the chaoskit extension key by key', () => {
    expect(extensionProblems({ name: 'chaoskit', allow_all_node: true, max_pod_share: 2 }).sort()).toEqual([
      'the chaoskit extension: max_pod_share must be at most 1 (every pod)',
      "the chaoskit extension: unknown key 'allow_all_node'; did you mean 'allow_all_nodes'? (known: name, allow_namespaces, protect_namespaces, allow_all_nodes, max_pod_share, skip_controls)",
    ]);
    expect(extensionProblems({ name: 'chaoskit', allow_all_nodes: true })).toEqual([]);
  });
});
