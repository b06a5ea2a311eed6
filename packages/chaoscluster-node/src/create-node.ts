import { ActivityFailed, defineActivity, Nodes, z } from '@chaoskit/core';
import type { NodeJson } from './get-nodes.js';
import { ACTIONS } from './modules.js';
import { fieldsOf, unknownField } from './node-fields.js';

export { type UnknownField, unknownField } from './node-fields.js';

// A field the API does not have (a typo, or the Python client's snake_case names such as
// `pod_cidr`) is refused while the arguments are validated, before any request, with the API's
// name when one is close.
function checkFields(value: Record<string, unknown>, type: string, ctx: z.core.$RefinementCtx<unknown>) {
  const found = unknownField(value, type);
  if (!found) return;
  ctx.addIssue({
    code: 'custom',
    message: `a mapping of the API's own field names (${fieldsOf(type).join(', ')}); '${found.path}' is not one${
      found.suggestion ? `, did you mean '${found.suggestion}'?` : ''
    }`,
  });
}

const mapping = () => z.record(z.string(), z.unknown());

export const createNodeActivity = defineActivity({
  name: 'create_node',
  kind: 'action',
  module: ACTIONS,
  doc: "Creates one node from meta (its metadata) and spec, written with the API's own field names (name, labels, podCIDR, providerID, taints, unschedulable …). Returns the created node, as the API sent it back. A cloud provider's controller may delete a node it does not know.",
  returns: 'the node created',
  args: {
    meta: mapping()
      .superRefine((value, ctx) => checkFields(value, 'V1ObjectMeta', ctx))
      .nullable()
      .default(null)
      .describe('Metadata of the node (ObjectMeta field names): name or generateName, labels, annotations.'),
    spec: mapping()
      .superRefine((value, ctx) => checkFields(value, 'V1NodeSpec', ctx))
      .nullable()
      .default(null)
      .describe('Spec of the node (NodeSpec field names): podCIDR, providerID, taints, unschedulable …'),
  },
  check(args) {
    const name = args.meta?.name;
    const generateName = args.meta?.generateName;
    if (typeof name !== 'string' && typeof generateName !== 'string') {
      return { argument: 'meta', accepted: "a mapping with the node's 'name' (or 'generateName')" };
    }
    return undefined;
  },
  rbac: [{ apiGroups: [''], resources: ['nodes'], verbs: ['create'] }],
  async run(args, ctx): Promise<NodeJson> {
    const body = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: args.meta ?? {},
      ...(args.spec && Object.keys(args.spec).length > 0 ? { spec: args.spec } : {}),
    };
    try {
      // Strict: the server refuses a field it would otherwise drop (one of node-fields.ts that
      // this API version does not have).
      const node = await ctx.kube.create<NodeJson>(Nodes, body, { query: { fieldValidation: 'Strict' } });
      ctx.log(`created node ${node.metadata?.name}`);
      return node;
    } catch (err) {
      throw new ActivityFailed(`Creating new node failed: ${(err as Error).message}`, { cause: err });
    }
  },
});

export const createNode = createNodeActivity.fn;
