import {
  ActivityFailed,
  checkNameSelector,
  defineActivity,
  formatNameSelector,
  nameSelectorArg,
  namespaceArg,
  whereLooked,
} from '@chaoskit/core';
import { deploymentNameArg } from './args.js';
import { byName, listDeployments, replicaCounts } from './deployments.js';
import { PROBES } from './modules.js';

export const deploymentAvailableAndHealthyActivity = defineActivity({
  name: 'deployment_available_and_healthy',
  kind: 'probe',
  module: PROBES,
  doc: 'Looks the deployment up by name (and label_selector, when given) and returns true when every expected replica is available (status.availableReplicas equals spec.replicas); fails with ActivityFailed when it is not found or not healthy.',
  returns: '`true`, or `ActivityFailed` with the counts',
  args: {
    name: deploymentNameArg('Name of the deployment (its own name).'),
    ns: namespaceArg('Namespace of the deployment.'),
    label_selector: nameSelectorArg(null).describe(
      'Label selector the deployment must also match; {name} is replaced by the name argument. Default: none.',
    ),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] }],
  async run(args, ctx) {
    const labelSelector = args.label_selector ? formatNameSelector(args.label_selector, args.name) : null;
    const [deployment] = await listDeployments(ctx.kube, args.ns, {
      labelSelector,
      fieldSelector: byName(args.name),
    });
    if (!deployment) {
      throw new ActivityFailed(
        `Deployment '${args.name}' was not found in ${whereLooked(args.ns, labelSelector)}`,
      );
    }
    const { desired, available } = replicaCounts(deployment);
    if (available !== desired) {
      throw new ActivityFailed(
        `Deployment '${args.name}' in namespace '${args.ns}' is not healthy: ${available} of ${desired} replicas available`,
      );
    }
    ctx.log(`deployment ${args.name} is healthy: ${available} of ${desired} replicas available`);
    return true;
  },
});

export const deploymentAvailableAndHealthy = deploymentAvailableAndHealthyActivity.fn;
