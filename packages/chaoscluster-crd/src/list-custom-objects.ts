import { type ActivityContext, defineActivity, namespaceArg } from '@chaoskit/core';
import {
  CustomObjects,
  failure,
  type ObjectList,
  PROBES,
  resourceTypeArgs,
  type Target,
  targetOf,
} from './custom-objects.js';

const variants = { namespaced: 'list_custom_objects', cluster: 'list_cluster_custom_objects' };
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['list'] }];

async function list(target: Target, ctx: ActivityContext): Promise<ObjectList> {
  const objects = new CustomObjects(ctx.secrets, target);
  try {
    return await objects.list();
  } catch (err) {
    throw await failure(err, { verb: 'list', target, variants }, objects);
  }
}

export const listCustomObjectsActivity = defineActivity({
  name: variants.namespaced,
  kind: 'probe',
  module: PROBES,
  doc: 'Lists the custom objects of a resource in namespace ns. A missing definition is ActivityFailed. Returns the whole list object ({apiVersion, kind, metadata, items}), every page of it.',
  args: { ...resourceTypeArgs(), ns: namespaceArg('Namespace of the objects.') },
  rbac: RBAC,
  run: (args, ctx) => list(targetOf(args), ctx),
});

export const listCustomObjects = listCustomObjectsActivity.fn;

export const listClusterCustomObjectsActivity = defineActivity({
  name: variants.cluster,
  kind: 'probe',
  module: PROBES,
  doc: 'Lists the custom objects of a resource cluster-wide (for a namespaced resource: in every namespace). A missing definition is ActivityFailed. Returns the whole list object ({apiVersion, kind, metadata, items}), every page of it.',
  args: resourceTypeArgs(),
  rbac: RBAC,
  run: (args, ctx) => list(targetOf(args), ctx),
});

export const listClusterCustomObjects = listClusterCustomObjectsActivity.fn;
