import {
  type ActivityContext,
  ActivityFailed,
  type ApiError,
  defineActivity,
  namespaceArg,
} from '@chaoskit/core';
import { bodyArgs, forceArg, objectNameArg, resourceTypeArgs } from './args.js';
import { addressed, type BodyArgsOutput, type CustomObject, checkBodyArgs, givenBody } from './body.js';
import { CustomObjects } from './custom-objects.js';
import { failure, isStaleVersion, type Operation } from './failures.js';
import { ACTIONS } from './modules.js';
import { describeObject, type Target, targetOf } from './target.js';

/** How many times a forced replace re-reads the current version when the object keeps changing. */
const FORCED_REPLACE_ATTEMPTS = 5;

const variants = { namespaced: 'replace_custom_object', cluster: 'replace_cluster_custom_object' };
// get: a forced replace reads the current resourceVersion first.
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'update'] }];
const nameArg = () => objectNameArg('Name of the custom object to replace.');
const force = () =>
  forceArg(
    'Replace whatever version is current: its resourceVersion is read first and put in the new object. Without force, the object must give metadata.resourceVersion, and a newer version on the server is a conflict (ActivityFailed, nothing replaced).',
  );
const body = () => bodyArgs('to put in place of the current one (the whole object)');

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

export const replaceCustomObjectActivity = defineActivity({
  name: variants.namespaced,
  kind: 'action',
  module: ACTIONS,
  doc: 'Replaces a custom object of namespace ns with resource (or resource_as_yaml_file), a PUT of the whole object. Without force the object gives metadata.resourceVersion and a newer version is a conflict; with force the current version is replaced. A missing object or definition is ActivityFailed. Returns the object the server returned.',
  returns: 'the object after the replace',
  args: {
    ...resourceTypeArgs(),
    name: nameArg(),
    ns: namespaceArg('Namespace of the object; a namespace in resource must be this one.'),
    force: force(),
    ...body(),
  },
  check: (args) => checkBodyArgs(args, { replace: true }),
  rbac: RBAC,
  run: (args, ctx) => replace(targetOf(args), args, ctx),
});

export const replaceCustomObject = replaceCustomObjectActivity.fn;

export const replaceClusterCustomObjectActivity = defineActivity({
  name: variants.cluster,
  kind: 'action',
  module: ACTIONS,
  doc: 'Replaces a cluster-scoped custom object with resource (or resource_as_yaml_file), a PUT of the whole object. Without force the object gives metadata.resourceVersion and a newer version is a conflict; with force the current version is replaced. A missing object or definition is ActivityFailed. Returns the object the server returned.',
  returns: 'the object after the replace',
  args: { ...resourceTypeArgs(), name: nameArg(), force: force(), ...body() },
  check: (args) => checkBodyArgs(args, { replace: true }),
  rbac: RBAC,
  run: (args, ctx) => replace(targetOf(args), args, ctx),
});

export const replaceClusterCustomObject = replaceClusterCustomObjectActivity.fn;
