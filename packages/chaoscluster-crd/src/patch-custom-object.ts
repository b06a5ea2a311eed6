import { type ActivityContext, defineActivity, isApiError } from '@chaoskit/core';
import { changeArgs } from './args.js';
import { applyBody, type BodyArgsOutput, type CustomObject, checkBodyArgs, givenBody } from './body.js';
import { CustomObjects, FIELD_MANAGER } from './custom-objects.js';
import { applyConflictFailure, applyConflicts, failure, type Operation } from './failures.js';
import { ACTIONS } from './modules.js';
import { describeObject, type Target, type TargetArgs, targetOf } from './target.js';

const variants = { namespaced: 'patch_custom_object', cluster: 'patch_cluster_custom_object' };
// get: the object must exist first (an apply would create it).
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'patch'] }];
const ARGS = changeArgs({
  verb: 'patch',
  force: `Take over the fields of resource that other field managers own (server-side apply with force); without it, such a field is a conflict and nothing is changed.`,
  body: 'holding the fields to set (server-side apply: only the fields it names are changed)',
});

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

/** What both variants share: they differ in their name, their words and `ns`. */
const PATCH = {
  kind: 'action',
  module: ACTIONS,
  returns: 'the object after the apply',
  check: <K extends string>(args: BodyArgsOutput) => checkBodyArgs<K>(args),
  rbac: RBAC,
  run: (args: BodyArgsOutput & TargetArgs & { name: string; force: boolean }, ctx: ActivityContext) =>
    patch(targetOf(args), args, ctx),
} as const;

export const patchCustomObjectActivity = defineActivity({
  ...PATCH,
  name: variants.namespaced,
  doc: 'Patches an existing custom object of namespace ns by a server-side apply of resource (or resource_as_yaml_file) as field manager "chaoskit": the fields it names are set. A field owned by another manager is a conflict (ActivityFailed naming the fields and managers) unless force is true, which takes them over. Returns the object the server returned.',
  args: ARGS.namespaced,
});

export const patchCustomObject = patchCustomObjectActivity.fn;

export const patchClusterCustomObjectActivity = defineActivity({
  ...PATCH,
  name: variants.cluster,
  doc: 'Patches an existing cluster-scoped custom object by a server-side apply of resource (or resource_as_yaml_file) as field manager "chaoskit": the fields it names are set. A field owned by another manager is a conflict (ActivityFailed naming the fields and managers) unless force is true, which takes them over. Returns the object the server returned.',
  args: ARGS.cluster,
});

export const patchClusterCustomObject = patchClusterCustomObjectActivity.fn;
