import { defineActivity, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { ALLOW_DNS } from './policies.js';
import { DELETE_RBAC, removePolicy } from './requests.js';

export const removeAllowDnsAccessActivity = defineActivity({
  name: 'remove_allow_dns_access',
  kind: 'action',
  module: ACTIONS,
  doc: 'Removes the network policy chaostoolkit-allow-dns that allow_dns_access created. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: "`{ policy: 'chaostoolkit-allow-dns', namespace }`",
  args: {
    ns: namespaceArg('Namespace of the policy.'),
  },
  rbac: DELETE_RBAC,
  run: (args, ctx) => removePolicy(ctx, args.ns, ALLOW_DNS, '; allow_dns_access creates it'),
});

export const removeAllowDnsAccess = removeAllowDnsAccessActivity.fn;
