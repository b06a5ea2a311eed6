import { defineGeneratedPolicy } from './generated-policy.js';
import { denyAllIngressPolicy } from './policies.js';

export const denyAllIngressActivity = defineGeneratedPolicy({
  name: 'deny_all_ingress',
  doc: "Denies all ingress: creates the network policy chaostoolkit-deny-all-ingress (policy type Ingress, no ingress rule) for every pod of the namespace, or only the pods carrying all of label_selectors. Returns the policy's name and namespace. remove_deny_all_ingress removes it.",
  returns: "`{ policy: 'chaostoolkit-deny-all-ingress', namespace }`",
  labelSelectors:
    'Labels of the pods to cut off from incoming traffic, as a mapping (e.g. {app: web}); null or empty: every pod of the namespace.',
  policy: denyAllIngressPolicy,
  remover: 'remove_deny_all_ingress',
});

export const denyAllIngress = denyAllIngressActivity.fn;
