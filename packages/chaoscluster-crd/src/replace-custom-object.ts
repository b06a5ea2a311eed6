import { type ActivityContext, ActivityFailed, type ApiError, defineActivity } from '@chaoskit/core';
import { changeArgs } from './args.js';
import { addressed, type BodyArgsOutput, type CustomObject, checkBodyArgs, givenBody } from './body.js';
import { CustomObjects } from './custom-objects.js';
import { failure, isStaleVersion, type Operation } from './failures.js';
import { ACTIONS } from './modules.js';
import { describeObject, type Target, type TargetArgs, targetOf } from './target.js';

/** How many times a forced replace re-reads the current version when the object keeps changing. */
const FORCED_REPLACE_ATTEMPTS = 5;

const variants = { namespaced: 'replace_custom_object', cluster: 'replace_cluster_custom_object' };
// get: a forced replace reads the current resourceVersion first.
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'update'] }];
const ARGS = changeArgs({
  verb: 'replace',
  force:
    'Replace whatever version is current: its resourceVersion is read first and put in the new object. Without force, the object must give metadata.resourceVersion, and a newer version on the server is a conflict (ActivityFailed, nothing replaced).',
  body: 'to put in place of the current one (the whole object)',
});

/** PUT of the whole object (D8): guarded by its resourceVersion, or by the current one with force. */
async function replace(
  target: Target,
  args: BodyArgsOutput & { name: string; force: boolean },
  ctx: ActivityContext,
): Promise<CustomObject> {
  const { body: given, where } = givenBody(args);
  const op: Operation = { verb: 'replace', target, name: args.name, variants };
  const objects = new CustomObjects(ctx.kube, target);
  const body = addressed(given, { name: args.name, namespace: target.namespace });
  const done = (replaced: CustomObject, how: string) => {
    ctx.log(`replaced ${describeObject(target, args.name)} from ${where} (${how})`);
    return replaced;
  };

  if (!args.force) {
    const version = body.metadata?.resourceVersion;
    try {
      return done(await objects.replace(args.name, body), `at resourceVersion ${version}`);
    } catch (err) {
      if (isStaleVersion(err)) {
        throw new ActivityFailed(
          `failed to replace ${describeObject(target, args.name)}: it changed since resourceVersion '${version}', which ${where} gives; nothing was replaced (read it again, or set force: true to replace the current version)`,
          { cause: err },
        );
      }
      throw await failure(err, op, ctx.kube);
    }
  }

  let lastConflict: ApiError | undefined;
  for (let attempt = 1; attempt <= FORCED_REPLACE_ATTEMPTS; attempt++) {
    try {
      const current = await objects.get(args.name);
      const version = current.metadata?.resourceVersion;
      const forced = { ...body, metadata: { ...body.metadata, resourceVersion: version } };
      return done(await objects.replace(args.name, forced), `forced, over resourceVersion ${version}`);
    } catch (err) {
      if (!isStaleVersion(err)) throw await failure(err, op, ctx.kube);
      lastConflict = err;
    }
  }
  throw new ActivityFailed(
    `failed to replace ${describeObject(target, args.name)}: it changed between reading its version and replacing it, ${FORCED_REPLACE_ATTEMPTS} times; nothing was replaced`,
    { cause: lastConflict },
  );
}

/** What both variants share: they differ in their name, their words and `ns`. */
const REPLACE = {
  kind: 'action',
  module: ACTIONS,
  returns: 'the object after the replace',
  check: <K extends string>(args: BodyArgsOutput) => checkBodyArgs<K>(args, { replace: true }),
  rbac: RBAC,
  run: (args: BodyArgsOutput & TargetArgs & { name: string; force: boolean }, ctx: ActivityContext) =>
    replace(targetOf(args), args, ctx),
} as const;

export const replaceCustomObjectActivity = defineActivity({
  ...REPLACE,
  name: variants.namespaced,
  doc: 'Replaces a custom object of namespace ns with resource (or resource_as_yaml_file), a PUT of the whole object. Without force the object gives metadata.resourceVersion and a newer version is a conflict; with force the current version is replaced. A missing object or definition is ActivityFailed. Returns the object the server returned.',
  args: ARGS.namespaced,
});

export const replaceCustomObject = replaceCustomObjectActivity.fn;

export const replaceClusterCustomObjectActivity = defineActivity({
  ...REPLACE,
  name: variants.cluster,
  doc: 'Replaces a cluster-scoped custom object with resource (or resource_as_yaml_file), a PUT of the whole object. Without force the object gives metadata.resourceVersion and a newer version is a conflict; with force the current version is replaced. A missing object or definition is ActivityFailed. Returns the object the server returned.',
  args: ARGS.cluster,
});

export const replaceClusterCustomObject = replaceClusterCustomObjectActivity.fn;
