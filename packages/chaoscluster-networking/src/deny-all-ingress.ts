import { defineActivity, namespaceArg } from '@chaoskit/core';
import { ACTIONS } from './modules.js';
import { denyAllIngressPolicy, labelSelectorsArg } from './policies.js';
import { CREATE_RBAC, createPolicy } from './requests.js';

export const denyAllIngressActivity = defineActivity({
  name: 'deny_all_ingress',
  kind: 'action',
  module: ACTIONS,
  doc: "Denies all ingress: creates the network policy chaostoolkit-deny-all-ingress (policy type Ingress, no ingress rule) for every pod of the namespace, or only the pods carrying all of label_selectors. Returns the policy's name and namespace. remove_deny_all_ingress removes it.",
  returns: "`{ policy: 'chaostoolkit-deny-all-ingress', namespace }`",
  args: {
    label_selectors: labelSelectorsArg(
      'Labels of the pods to cut off from incoming traffic, as a mapping (e.g. {app: web}); null or empty: every pod of the namespace.',
    ),
    ns: namespaceArg('Namespace of the pods, where the policy is created.'),
  },
  rbac: CREATE_RBAC,
  run: (args, ctx) =>
    createPolicy(
      ctx,
      args.ns,
      denyAllIngressPolicy(args.label_selectors),
      '; remove_deny_all_ingress removes it',
    ),
});

export const denyAllIngress = denyAllIngressActivity.fn;
