import { defineActivity, listAll } from '@chaoskit/core';
import type { V1ListMeta } from '@kubernetes/client-node';
import { nodeApi, nodeSelectorArg, toPlainJson } from './nodes.js';

/** The API's NodeList, as JSON. */
export interface NodeList {
  kind: 'NodeList';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string };
  items: Record<string, unknown>[];
}

export const getNodesActivity = defineActivity({
  name: 'get_nodes',
  kind: 'probe',
  module: 'chaoscluster.node.probes',
  doc: "Lists the nodes, filtered by label_selector when given (no role filtering: control-plane nodes are listed too). Returns the API's NodeList: kind, apiVersion, metadata and items, each node as the API sent it.",
  args: {
    label_selector: nodeSelectorArg('Label selector of the nodes to list; every node when absent.'),
  },
  rbac: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
  async run(args, ctx): Promise<NodeList> {
    const { core } = nodeApi(ctx.secrets);
    let listMeta: V1ListMeta | undefined;
    // Paginated; every page comes from the snapshot of the first, whose resourceVersion is kept.
    const items = await listAll(
      async (page) => {
        const list = await core.listNode({
          ...(args.label_selector ? { labelSelector: args.label_selector } : {}),
          ...page,
        });
        listMeta ??= list.metadata;
        return list;
      },
      { context: { verb: 'list', resource: 'nodes' } },
    );
    ctx.log(`${items.length} node(s)${args.label_selector ? ` match '${args.label_selector}'` : ''}`);
    return {
      kind: 'NodeList',
      apiVersion: 'v1',
      metadata: listMeta?.resourceVersion ? { resourceVersion: listMeta.resourceVersion } : {},
      items: items.map(toPlainJson),
    };
  },
});

export const getNodes = getNodesActivity.fn;
