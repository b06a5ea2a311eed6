import { type ActivityContext, defineActivity, namespaceArg } from '@chaoskit/core';
import { bodyArgs, resourceTypeArgs } from './args.js';
import { addressed, type BodyArgsOutput, type CustomObject, checkBodyArgs, givenBody } from './body.js';
import { CustomObjects } from './custom-objects.js';
import { alreadyExistsFailure, failure, isConflict, type Operation } from './failures.js';
import { ACTIONS } from './modules.js';
import { type Target, targetOf } from './target.js';

const variants = { namespaced: 'create_custom_object', cluster: 'create_cluster_custom_object' };
const RBAC = [{ apiGroups: ['*'], resources: ['*'], verbs: ['create'] }];
const body = () => bodyArgs('to create');

/** Creates the object; an existing one of that name is an ActivityFailed (nothing is created). */
async function create(target: Target, args: BodyArgsOutput, ctx: ActivityContext): Promise<CustomObject> {
  const { body: given, where } = givenBody(args);
  const name = given.metadata?.name ?? `${given.metadata?.generateName ?? ''}…`;
  const op: Operation = { verb: 'create', target, name, variants };
  let created: CustomObject;
  try {
    created = await new CustomObjects(ctx.kube, target).create(
      addressed(given, { namespace: target.namespace }),
    );
  } catch (err) {
    if (isConflict(err)) {
      const alternatives =
        target.namespace === undefined
          ? 'patch_cluster_custom_object or replace_cluster_custom_object'
          : 'patch_custom_object or replace_custom_object';
      throw alreadyExistsFailure(err, op, alternatives);
    }
    throw await failure(err, op, ctx.kube);
  }
  const createdName = created.metadata?.name ?? name;
  ctx.log(
    `created ${given.kind} '${createdName}' (${target.plural}.${target.group}/${target.version})${target.namespace === undefined ? '' : ` in namespace ${target.namespace}`} from ${where}`,
  );
  return created;
}

export const createCustomObjectActivity = defineActivity({
  name: variants.namespaced,
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a custom object in namespace ns, from resource or resource_as_yaml_file. Its custom resource definition must be installed; a missing definition, and an object that already exists, are ActivityFailed. Returns the object the server created.',
  returns: 'the object the server created',
  args: {
    ...resourceTypeArgs(),
    ns: namespaceArg(
      'Namespace of the object; a namespace in the object must be this one (an object without one is created here).',
    ),
    ...body(),
  },
  check: (args) => checkBodyArgs(args, { create: true }),
  rbac: RBAC,
  run: (args, ctx) => create(targetOf(args), args, ctx),
});

export const createCustomObject = createCustomObjectActivity.fn;

export const createClusterCustomObjectActivity = defineActivity({
  name: variants.cluster,
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a cluster-scoped custom object, from resource or resource_as_yaml_file. Its custom resource definition must be installed; a missing definition, and an object that already exists, are ActivityFailed. Returns the object the server created.',
  returns: 'the object the server created',
  args: { ...resourceTypeArgs(), ...body() },
  check: (args) => checkBodyArgs(args, { create: true }),
  rbac: RBAC,
  run: (args, ctx) => create(targetOf(args), args, ctx),
});

export const createClusterCustomObject = createClusterCustomObjectActivity.fn;
