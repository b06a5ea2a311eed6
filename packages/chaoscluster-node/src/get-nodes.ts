import { defineActivity, Nodes } from '@chaoskit/core';
import { nodeSelectorArg } from './args.js';
import { PROBES } from './modules.js';

/** A node as the API sends it, as JSON (timestamps are RFC 3339 strings). */
export interface NodeJson {
  /** Absent on the items of a list. */
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp: string;
    /** Absent when the node has none. */
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  spec?: {
    podCIDR?: string;
    podCIDRs?: string[];
    providerID?: string;
    taints?: Array<{ key: string; value?: string; effect: string; timeAdded?: string }>;
    unschedulable?: boolean;
    [key: string]: unknown;
  };
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The API's NodeList, as JSON. */
export interface NodeList {
  kind: 'NodeList';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string };
  items: NodeJson[];
}

export const getNodesActivity = defineActivity({
  name: 'get_nodes',
  kind: 'probe',
  module: PROBES,
  doc: "Lists the nodes, filtered by label_selector when given (no role filtering: control-plane nodes are listed too). Returns the API's NodeList: kind, apiVersion, metadata and items, each node as the API sent it.",
  returns: 'the `NodeList` (`kind`, `apiVersion`, `metadata`, `items`)',
  args: {
    label_selector: nodeSelectorArg('Label selector of the nodes to list; every node when absent.'),
  },
  rbac: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
  async run(args, ctx): Promise<NodeList> {
    // Every page comes from the snapshot of the first: its resourceVersion is the list's.
    const { items, resourceVersion } = await ctx.kube.listWithVersion<NodeJson>(Nodes, {
      labelSelector: args.label_selector,
    });
    ctx.log(`${items.length} node(s)${args.label_selector ? ` match '${args.label_selector}'` : ''}`);
    return {
      kind: 'NodeList',
      apiVersion: 'v1',
      metadata: resourceVersion ? { resourceVersion } : {},
      items,
    };
  },
});

export const getNodes = getNodesActivity.fn;
