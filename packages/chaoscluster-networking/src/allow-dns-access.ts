import { defineGeneratedPolicy } from './generated-policy.js';
import { allowDnsPolicy } from './policies.js';

export const allowDnsAccessActivity = defineGeneratedPolicy({
  name: 'allow_dns_access',
  doc: "Allows DNS access: creates the network policy chaostoolkit-allow-dns (policy type Egress, allowing port 53 over UDP and TCP to every namespace) for every pod of the namespace, or only the pods carrying all of label_selectors. Returns the policy's name and namespace. remove_allow_dns_access removes it.",
  returns: "`{ policy: 'chaostoolkit-allow-dns', namespace }`",
  labelSelectors:
    'Labels of the pods allowed to reach DNS, as a mapping (e.g. {app: web}); null or empty: every pod of the namespace.',
  policy: allowDnsPolicy,
  remover: 'remove_allow_dns_access',
});

export const allowDnsAccess = allowDnsAccessActivity.fn;
