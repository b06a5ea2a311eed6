import { allowDnsAccessActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { allowDnsRunning } from '../../running/network-scenarios.js';
import { createScenarios, type GeneratedPolicy } from './fixtures.js';

export const allowDnsAccessPolicy: GeneratedPolicy = {
  policy: 'chaostoolkit-allow-dns',
  creator: 'allow_dns_access',
  remover: 'remove_allow_dns_access',
  // DNS, port 53 over UDP and TCP, to every namespace.
  storedSpec: (matchLabels) => ({
    podSelector: matchLabels ? { matchLabels } : {},
    policyTypes: ['Egress'],
    egress: [
      {
        to: [{ namespaceSelector: {} }],
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
      },
    ],
  }),
};

export default defineCase({
  activity: allowDnsAccessActivity,
  scenarios: [...createScenarios(allowDnsAccessPolicy), allowDnsRunning],
});
