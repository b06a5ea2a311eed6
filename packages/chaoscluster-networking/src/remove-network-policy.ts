import { defineActivity, kubernetesName, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { DELETE_RBAC, removePolicy } from './requests.js';

export const removeNetworkPolicyActivity = defineActivity({
  name: 'remove_network_policy',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the network policy called name from namespace ns. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: '`{ policy, namespace }`',
  args: {
    name: kubernetesName('a network policy name').describe('Name of the network policy to remove.'),
    ns: namespaceArg('Namespace of the policy.'),
  },
  rbac: DELETE_RBAC,
  run: (args, ctx) => removePolicy(ctx, args.ns, args.name),
});

export const removeNetworkPolicy = removeNetworkPolicyActivity.fn;
