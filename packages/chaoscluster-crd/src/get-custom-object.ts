import { type ActivityContext, defineActivity, namespaceArg } from '@chaoskit/core';
import { objectNameArg, resourceTypeArgs } from './args.js';
import type { CustomObject } from './body.js';
import { CustomObjects } from './custom-objects.js';
import { failure } from './failures.js';
import { PROBES } from './modules.js';
import { type Target, targetOf } from './target.js';

const variants = { namespaced: 'get_custom_object', cluster: 'get_cluster_custom_object' };
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }];
const nameArg = () => objectNameArg('Name of the custom object to read.');

async function get(target: Target, name: string, ctx: ActivityContext): Promise<CustomObject> {
  try {
    return await new CustomObjects(ctx.kube, target).get(name);
  } catch (err) {
    throw await failure(err, { verb: 'get', target, name, variants }, ctx.kube);
  }
}

export const getCustomObjectActivity = defineActivity({
  name: variants.namespaced,
  kind: 'probe',
  module: PROBES,
  doc: 'Reads a custom object of namespace ns. A missing object or definition is ActivityFailed. Returns the object.',
  returns: 'the object',
  args: { ...resourceTypeArgs(), name: nameArg(), ns: namespaceArg('Namespace of the object.') },
  rbac: RBAC,
  run: (args, ctx) => get(targetOf(args), args.name, ctx),
});

export const getCustomObject = getCustomObjectActivity.fn;

export const getClusterCustomObjectActivity = defineActivity({
  name: variants.cluster,
  kind: 'probe',
  module: PROBES,
  doc: 'Reads a cluster-scoped custom object. A missing object or definition is ActivityFailed. Returns the object.',
  returns: 'the object',
  args: { ...resourceTypeArgs(), name: nameArg() },
  rbac: RBAC,
  run: (args, ctx) => get(targetOf(args), args.name, ctx),
});

export const getClusterCustomObject = getClusterCustomObjectActivity.fn;
