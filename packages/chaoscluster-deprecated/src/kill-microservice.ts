import { deleteDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { deletePodsActivity } from '@chaoskit/chaoscluster-pod';
import {
  type ActivityContext,
  checkPodRemoval,
  deleteAll,
  formatNameSelector,
  NAME_SELECTOR_TEMPLATE,
  objectName,
  Pods,
  ReplicaSets,
} from '@chaoskit/core';
import type { V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { ACTIONS } from './modules.js';

const shape = deleteDeploymentActivity.schema.shape;

/** Deletes the apps/v1 replica sets matching `selector` (D14: not extensions/v1beta1). */
async function deleteReplicaSets(ctx: ActivityContext, ns: string, selector: string): Promise<string[]> {
  const found = await ctx.kube.list<V1ReplicaSet>(ReplicaSets, { namespace: ns, labelSelector: selector });
  // One already gone (the deployment's garbage collection is quick) counts as deleted.
  const deleted = await deleteAll(ctx.kube, ReplicaSets, found, {
    query: { propagationPolicy: 'Background' },
    verb: 'delete replica set',
  });
  const names = deleted.map(objectName);
  if (names.length) ctx.log(`deleted ${names.length} replica set(s) of namespace ${ns}: ${names.join(', ')}`);
  return names;
}

export const killMicroserviceActivity = defineDeprecated({
  name: 'kill_microservice',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deprecated: delete_deployment, then delete_pods. Kills a microservice: deletes the deployments, then the replica sets (apps/v1), then the pods that label_selector matches (by default those labelled name=<name>), the pods at once. Fails when no deployment matches. Returns the names of what was deleted.',
  returns: '`{ deployments: string[], replica_sets: string[], pods: string[] }`',
  args: {
    ...shape,
    name: shape.name.describe(
      'Name put in place of {name} in label_selector (by default: the value of the label "name" of the deployments, replica sets and pods).',
    ),
    label_selector: shape.label_selector.describe(
      `Label selector of the deployments, replica sets and pods; {name} is replaced by the name argument. The default "${NAME_SELECTOR_TEMPLATE}" matches those labelled name=<name>.`,
    ),
  },
  check: (args) => modernProblem(deleteDeploymentActivity, args),
  rbac: [
    ...rulesOf(deleteDeploymentActivity),
    { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list', 'delete'] },
    ...rulesOf(deletePodsActivity),
  ],
  replacement: `${deleteDeploymentActivity.qualifiedName}, ${deletePodsActivity.qualifiedName}`,
  async run(args, ctx) {
    const selector = formatNameSelector(args.label_selector ?? NAME_SELECTOR_TEMPLATE, args.name);
    // Deleting the deployments takes their pods too: the pod share rail decides before that.
    await checkPodRemoval(
      ctx.kube,
      await ctx.kube.list<V1Pod>(Pods, { namespace: args.ns, labelSelector: selector, metadataOnly: true }),
    );
    const { deployments } = await delegate(deleteDeploymentActivity, args, ctx);
    const replicaSets = await deleteReplicaSets(ctx, args.ns, selector);
    const { pods } = await delegate(deletePodsActivity, args, ctx);
    return { deployments, replica_sets: replicaSets, pods };
  },
});

export const killMicroservice = killMicroserviceActivity.fn;
