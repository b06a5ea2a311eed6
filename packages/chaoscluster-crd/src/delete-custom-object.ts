import { type ActivityContext, defineActivity, namespaceArg } from '@chaoskit/core';
import { objectNameArg, resourceTypeArgs } from './args.js';
import type { CustomObject } from './body.js';
import { CustomObjects, type Status } from './custom-objects.js';
import { failure } from './failures.js';
import { ACTIONS } from './modules.js';
import { describeObject, type Target, targetOf } from './target.js';

const variants = { namespaced: 'delete_custom_object', cluster: 'delete_cluster_custom_object' };
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['delete'] }];
const nameArg = () => objectNameArg('Name of the custom object to delete.');

/** Deletes the object; returns what the server returned (a Status, or the object when finalizers hold it). */
async function remove(target: Target, name: string, ctx: ActivityContext): Promise<Status | CustomObject> {
  let result: Status | CustomObject;
  try {
    result = await new CustomObjects(ctx.kube, target).delete(name);
  } catch (err) {
    throw await failure(err, { verb: 'delete', target, name, variants }, ctx.kube);
  }
  ctx.log(`deleted ${describeObject(target, name)}`);
  return result;
}

export const deleteCustomObjectActivity = defineActivity({
  name: variants.namespaced,
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes a custom object of namespace ns. A missing object or definition is ActivityFailed. Returns what the server returned: a Status, or the object itself while finalizers hold it.',
  returns:
    'what the server returned: a `Status` (`status: Success`, `details.name`, `details.uid`), or the object with its `deletionTimestamp` while finalizers hold it',
  args: { ...resourceTypeArgs(), name: nameArg(), ns: namespaceArg('Namespace of the object.') },
  rbac: RBAC,
  run: (args, ctx) => remove(targetOf(args), args.name, ctx),
});

export const deleteCustomObject = deleteCustomObjectActivity.fn;

export const deleteClusterCustomObjectActivity = defineActivity({
  name: variants.cluster,
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes a cluster-scoped custom object. A missing object or definition is ActivityFailed. Returns what the server returned: a Status, or the object itself while finalizers hold it.',
  returns:
    'what the server returned: a `Status` (`status: Success`, `details.name`, `details.uid`), or the object with its `deletionTimestamp` while finalizers hold it',
  args: { ...resourceTypeArgs(), name: nameArg() },
  rbac: RBAC,
  run: (args, ctx) => remove(targetOf(args), args.name, ctx),
});

export const deleteClusterCustomObject = deleteClusterCustomObjectActivity.fn;
