import { defineGeneratedPolicy } from './generated-policy.js';
import { denyAllEgressPolicy } from './policies.js';

export const denyAllEgressActivity = defineGeneratedPolicy({
  name: 'deny_all_egress',
  doc: "Denies all egress: creates the network policy chaostoolkit-deny-all-egress (policy type Egress, no egress rule) for every pod of the namespace, or only the pods carrying all of label_selectors. Returns the policy's name and namespace. remove_deny_all_egress removes it.",
  returns: "`{ policy: 'chaostoolkit-deny-all-egress', namespace }`",
  labelSelectors:
    'Labels of the pods to cut off from outgoing traffic, as a mapping (e.g. {app: web}); null or empty: every pod of the namespace.',
  policy: denyAllEgressPolicy,
  remover: 'remove_deny_all_egress',
});

export const denyAllEgress = denyAllEgressActivity.fn;
