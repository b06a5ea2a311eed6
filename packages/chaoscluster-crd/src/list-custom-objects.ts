import { type ActivityContext, defineActivity, namespaceArg } from '@chaoskit/core';
import { resourceTypeArgs } from './args.js';
import { type CustomObjectList, CustomObjects } from './custom-objects.js';
import { failure } from './failures.js';
import { PROBES } from './modules.js';
import { type Target, targetOf } from './target.js';

const variants = { namespaced: 'list_custom_objects', cluster: 'list_cluster_custom_objects' };
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['list'] }];

async function list(target: Target, ctx: ActivityContext): Promise<CustomObjectList> {
  try {
    return await new CustomObjects(ctx.kube, target).list();
  } catch (err) {
    throw await failure(err, { verb: 'list', target, variants }, ctx.kube);
  }
}

export const listCustomObjectsActivity = defineActivity({
  name: variants.namespaced,
  kind: 'probe',
  module: PROBES,
  doc: 'Lists the custom objects of a resource in namespace ns. A missing definition is ActivityFailed. Returns the whole list object ({apiVersion, kind, metadata, items}), every page of it.',
  returns:
    'the whole list object `{apiVersion, kind: <Kind>List, metadata: {resourceVersion}, items: [...]}`',
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
  returns:
    'the whole list object `{apiVersion, kind: <Kind>List, metadata: {resourceVersion}, items: [...]}`, cluster-wide (for a namespaced resource: every namespace)',
  args: resourceTypeArgs(),
  rbac: RBAC,
  run: (args, ctx) => list(targetOf(args), ctx),
});

export const listClusterCustomObjects = listClusterCustomObjectsActivity.fn;
