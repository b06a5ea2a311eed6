import { ActivityFailed, defineActivity, dryRunParam, toApiError, z } from '@chaoskit/core';
import {
  V1ConfigMapNodeConfigSource,
  V1ManagedFieldsEntry,
  V1NodeConfigSource,
  V1NodeSpec,
  V1ObjectMeta,
  V1OwnerReference,
  V1Taint,
} from '@kubernetes/client-node';
import { nodeApi, toPlainJson } from './nodes.js';

// client-node serializes a request body through its models, which silently drop every field
// they do not know (a typo, or the Python client's snake_case names such as `pod_cidr`): the
// node would be created without it. So the fields are checked here, against the same models,
// before any request is sent.

interface Model {
  getAttributeTypeMap(): Array<{ name: string; baseName: string; type: string }>;
}

const MODELS: Record<string, Model> = {
  V1ObjectMeta,
  V1NodeSpec,
  V1Taint,
  V1NodeConfigSource,
  V1ConfigMapNodeConfigSource,
  V1OwnerReference,
  V1ManagedFieldsEntry,
};

export interface UnknownField {
  /** Where, e.g. `taints[0].efect`. */
  path: string;
  /** The API's field name closest to it, when there is one. */
  suggestion?: string;
}

const normal = (key: string) => key.toLowerCase().replace(/_/g, '');

/**
 * The first field of `value` that the API object of type `type` (a client-node model name)
 * does not have, looked for at every depth the models describe.
 */
export function unknownField(value: unknown, type: string, path = ''): UnknownField | undefined {
  if (value === null || value === undefined) return undefined;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) return undefined;
    for (const [i, item] of value.entries()) {
      const found = unknownField(item, array[1] as string, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  const model = MODELS[type];
  if (!model || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const attributes = model.getAttributeTypeMap();
  for (const [key, inner] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    const attribute = attributes.find((a) => a.baseName === key);
    if (!attribute) {
      const close = attributes.find((a) => normal(a.baseName) === normal(key));
      return close ? { path: where, suggestion: close.baseName } : { path: where };
    }
    const found = unknownField(inner, attribute.type, where);
    if (found) return found;
  }
  return undefined;
}

function checkFields(value: Record<string, unknown>, type: string, ctx: z.core.$RefinementCtx<unknown>) {
  const found = unknownField(value, type);
  if (!found) return;
  const known = MODELS[type]!.getAttributeTypeMap()
    .map((a) => a.baseName)
    .join(', ');
  ctx.addIssue({
    code: 'custom',
    message: `a mapping of the API's own field names (${known}); '${found.path}' is not one${
      found.suggestion ? `, did you mean '${found.suggestion}'?` : ''
    }`,
  });
}

const mapping = () => z.record(z.string(), z.unknown());

export const createNodeActivity = defineActivity({
  name: 'create_node',
  kind: 'action',
  module: 'chaoscluster.node.actions',
  doc: "Creates one node from meta (its metadata) and spec, written with the API's own field names (name, labels, podCIDR, providerID, taints, unschedulable …). Returns the created node, as the API sent it back. A cloud provider's controller may delete a node it does not know.",
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
  async run(args, ctx) {
    const { core } = nodeApi(ctx.secrets);
    const body = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: args.meta ?? {},
      ...(args.spec && Object.keys(args.spec).length > 0 ? { spec: args.spec } : {}),
    };
    try {
      // Strict: the server refuses what it would otherwise drop (a field the models know but
      // this API version does not).
      const node = await core.createNode({ body, fieldValidation: 'Strict', ...dryRunParam(ctx) });
      ctx.log(`created node ${node.metadata?.name}`);
      return toPlainJson(node);
    } catch (err) {
      const apiError = toApiError(err, { verb: 'create', resource: 'node' });
      throw new ActivityFailed(`Creating new node failed: ${(apiError as Error).message}`, {
        cause: apiError,
      });
    }
  },
});

export const createNode = createNodeActivity.fn;
