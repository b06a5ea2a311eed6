import { defineActivity, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { allowDnsPolicy, labelSelectorsArg } from './policies.js';
import { CREATE_RBAC, createPolicy } from './requests.js';

export const allowDnsAccessActivity = defineActivity({
  name: 'allow_dns_access',
  kind: 'action',
  module: ACTIONS,
  doc: "Allows DNS access: creates the network policy chaostoolkit-allow-dns (policy type Egress, allowing port 53 over UDP and TCP to every namespace) for every pod of the namespace, or only the pods carrying all of label_selectors. Returns the policy's name and namespace. remove_allow_dns_access removes it.",
  returns: "`{ policy: 'chaostoolkit-allow-dns', namespace }`",
  args: {
    label_selectors: labelSelectorsArg(
      'Labels of the pods allowed to reach DNS, as a mapping (e.g. {app: web}); null or empty: every pod of the namespace.',
    ),
    ns: namespaceArg('Namespace of the pods, where the policy is created.'),
  },
  rbac: CREATE_RBAC,
  run: (args, ctx) =>
    createPolicy(ctx, args.ns, allowDnsPolicy(args.label_selectors), '; remove_allow_dns_access removes it'),
});

export const allowDnsAccess = allowDnsAccessActivity.fn;
