import { defineActivity, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { denyAllEgressPolicy, labelSelectorsArg } from './policies.js';
import { CREATE_RBAC, createPolicy } from './requests.js';

export const denyAllEgressActivity = defineActivity({
  name: 'deny_all_egress',
  kind: 'action',
  module: ACTIONS,
  doc: "Denies all egress: creates the network policy chaostoolkit-deny-all-egress (policy type Egress, no egress rule) for every pod of the namespace, or only the pods carrying all of label_selectors. Returns the policy's name and namespace. remove_deny_all_egress removes it.",
  returns: "`{ policy: 'chaostoolkit-deny-all-egress', namespace }`",
  args: {
    label_selectors: labelSelectorsArg(
      'Labels of the pods to cut off from outgoing traffic, as a mapping (e.g. {app: web}); null or empty: every pod of the namespace.',
    ),
    ns: namespaceArg('Namespace of the pods, where the policy is created.'),
  },
  rbac: CREATE_RBAC,
  run: (args, ctx) =>
    createPolicy(
      ctx,
      args.ns,
      denyAllEgressPolicy(args.label_selectors),
      '; remove_deny_all_egress removes it',
    ),
});

export const denyAllEgress = denyAllEgressActivity.fn;
