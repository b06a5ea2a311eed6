import { allowDnsAccessActivity, DNS_EGRESS } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { allowDnsRunning } from '../../running/network-scenarios.js';
import { createScenarios, type GeneratedPolicy } from './fixtures.js';

export const allowDnsAccessPolicy: GeneratedPolicy = {
  policy: 'chaostoolkit-allow-dns',
  creator: 'allow_dns_access',
  remover: 'remove_allow_dns_access',
  // DNS, port 53 over UDP and TCP, to every namespace: the rule itself is checked byte for byte
  // against 0.25.1's in the package's tests; here, that the cluster stores it as sent.
  storedSpec: (matchLabels) => ({
    podSelector: matchLabels ? { matchLabels } : {},
    policyTypes: ['Egress'],
    egress: DNS_EGRESS,
  }),
};

export default defineCase({
  activity: allowDnsAccessActivity,
  scenarios: [...createScenarios(allowDnsAccessPolicy), allowDnsRunning],
});
