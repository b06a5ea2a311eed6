import { deleteDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { deletePodsActivity } from '@chaoskit/chaoscluster-pod';
import {
  deleteReplicaSetActivity,
  deleteReplicaSets,
  listReplicaSets,
} from '@chaoskit/chaoscluster-replicaset';
import { checkPodRemoval, formatNameSelector, NAME_SELECTOR_TEMPLATE, Pods } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { ACTIONS } from './modules.js';

const shape = deleteDeploymentActivity.schema.shape;

export const killMicroserviceActivity = defineDeprecated({
  name: 'kill_microservice',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deprecated: delete_deployment, delete_replica_set, then delete_pods. Kills a microservice: deletes the deployments, then the replica sets (apps/v1), then the pods that label_selector matches (by default those labelled name=<name>), the pods at once. Fails when no deployment matches. Returns the names of what was deleted.',
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
    ...rulesOf(deleteReplicaSetActivity),
    ...rulesOf(deletePodsActivity),
  ],
  replacement: `${deleteDeploymentActivity.qualifiedName}, ${deleteReplicaSetActivity.qualifiedName}, ${deletePodsActivity.qualifiedName}`,
  async run(args, ctx) {
    const selector = formatNameSelector(args.label_selector ?? NAME_SELECTOR_TEMPLATE, args.name);
    // Deleting the deployments takes their pods too: the pod share rail decides before that.
    await checkPodRemoval(
      ctx.kube,
      await ctx.kube.list<V1Pod>(Pods, {
        namespace: args.ns,
        labelSelector: selector,
        metadataOnly: true,
        metadataFields: ['name', 'namespace'],
      }),
      // The microservice is named: its pods are the experiment's stated target (D88).
      { named: (args.label_selector ?? NAME_SELECTOR_TEMPLATE).includes('{name}') },
    );
    const { deployments } = await delegate(deleteDeploymentActivity, args, ctx);
    // Those the deployments' garbage collection has not taken yet: none left is no failure here.
    const replicaSets = await deleteReplicaSets(
      ctx,
      args.ns,
      await listReplicaSets(ctx.kube, args.ns, { labelSelector: selector }),
    );
    const { pods } = await delegate(deletePodsActivity, args, ctx);
    return { deployments, replica_sets: replicaSets, pods };
  },
});

export const killMicroservice = killMicroserviceActivity.fn;
