import { defineActivity, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { DENY_ALL_INGRESS } from './policies.js';
import { DELETE_RBAC, removePolicy } from './requests.js';

export const removeDenyAllIngressActivity = defineActivity({
  name: 'remove_deny_all_ingress',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the network policy chaostoolkit-deny-all-ingress that deny_all_ingress created. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: "`{ policy: 'chaostoolkit-deny-all-ingress', namespace }`",
  args: {
    ns: namespaceArg('Namespace of the policy.'),
  },
  rbac: DELETE_RBAC,
  run: (args, ctx) => removePolicy(ctx, args.ns, DENY_ALL_INGRESS, '; deny_all_ingress creates it'),
});

export const removeDenyAllIngress = removeDenyAllIngressActivity.fn;
