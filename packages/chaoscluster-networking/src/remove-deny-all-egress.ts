import { defineActivity, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { DENY_ALL_EGRESS } from './policies.js';
import { DELETE_RBAC, removePolicy } from './requests.js';

export const removeDenyAllEgressActivity = defineActivity({
  name: 'remove_deny_all_egress',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the network policy chaostoolkit-deny-all-egress that deny_all_egress created. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: "`{ policy: 'chaostoolkit-deny-all-egress', namespace }`",
  args: {
    ns: namespaceArg('Namespace of the policy.'),
  },
  rbac: DELETE_RBAC,
  run: (args, ctx) => removePolicy(ctx, args.ns, DENY_ALL_EGRESS, '; deny_all_egress creates it'),
});

export const removeDenyAllEgress = removeDenyAllEgressActivity.fn;
