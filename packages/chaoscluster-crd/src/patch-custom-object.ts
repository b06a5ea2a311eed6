import { type ActivityContext, defineActivity, isApiError, namespaceArg } from '@chaoskit/core';
import { bodyArgs, forceArg, objectNameArg, resourceTypeArgs } from './args.js';
import { applyBody, type BodyArgsOutput, type CustomObject, checkBodyArgs, givenBody } from './body.js';
import { CustomObjects, FIELD_MANAGER } from './custom-objects.js';
import { applyConflictFailure, applyConflicts, failure, type Operation } from './failures.js';
import { ACTIONS } from './modules.js';
import { describeObject, type Target, targetOf } from './target.js';

const variants = { namespaced: 'patch_custom_object', cluster: 'patch_cluster_custom_object' };
// get: the object must exist first (an apply would create it).
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'patch'] }];
const nameArg = () => objectNameArg('Name of the custom object to patch.');
const force = () =>
  forceArg(
    `Take over the fields of resource that other field managers own (server-side apply with force); without it, such a field is a conflict and nothing is changed.`,
  );
const body = () =>
  bodyArgs('holding the fields to set (server-side apply: only the fields it names are changed)');

/**
 * Server-side apply by the field manager `chaoskit` (D7). The object must exist: it is read
 * first, so that a mistyped name is an error rather than a new object.
 */
async function patch(
  target: Target,
  args: BodyArgsOutput & { name: string; force: boolean },
  ctx: ActivityContext,
) {
  const { body: given, where } = givenBody(args);
  const op: Operation = { verb: 'patch', target, name: args.name, variants };
  const objects = new CustomObjects(ctx.kube, target);
  let patched: CustomObject;
  try {
    await objects.get(args.name);
    patched = await objects.apply(args.name, applyBody(given, args.name, target.namespace), args.force);
  } catch (err) {
    if (isApiError(err) && applyConflicts(err).size > 0) throw applyConflictFailure(err, op);
    throw await failure(err, op, ctx.kube);
  }
  ctx.log(
    `patched ${describeObject(target, args.name)} from ${where} (server-side apply as "${FIELD_MANAGER}"${args.force ? ', forced' : ''})`,
  );
  return patched;
}

export const patchCustomObjectActivity = defineActivity({
  name: variants.namespaced,
  kind: 'action',
  module: ACTIONS,
  doc: 'Patches an existing custom object of namespace ns by a server-side apply of resource (or resource_as_yaml_file) as field manager "chaoskit": the fields it names are set. A field owned by another manager is a conflict (ActivityFailed naming the fields and managers) unless force is true, which takes them over. Returns the object the server returned.',
  returns: 'the object after the apply',
  args: {
    ...resourceTypeArgs(),
    name: nameArg(),
    ns: namespaceArg('Namespace of the object; a namespace in resource must be this one.'),
    force: force(),
    ...body(),
  },
  check: (args) => checkBodyArgs(args),
  rbac: RBAC,
  run: (args, ctx) => patch(targetOf(args), args, ctx),
});

export const patchCustomObject = patchCustomObjectActivity.fn;

export const patchClusterCustomObjectActivity = defineActivity({
  name: variants.cluster,
  kind: 'action',
  module: ACTIONS,
  doc: 'Patches an existing cluster-scoped custom object by a server-side apply of resource (or resource_as_yaml_file) as field manager "chaoskit": the fields it names are set. A field owned by another manager is a conflict (ActivityFailed naming the fields and managers) unless force is true, which takes them over. Returns the object the server returned.',
  returns: 'the object after the apply',
  args: { ...resourceTypeArgs(), name: nameArg(), force: force(), ...body() },
  check: (args) => checkBodyArgs(args),
  rbac: RBAC,
  run: (args, ctx) => patch(targetOf(args), args, ctx),
});

export const patchClusterCustomObject = patchClusterCustomObjectActivity.fn;
