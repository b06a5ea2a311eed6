import { denyAllIngressActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { denyIngressRunning } from '../../running/network-scenarios.js';
import { createScenarios, type GeneratedPolicy } from './fixtures.js';

export const denyAllIngressPolicy: GeneratedPolicy = {
  policy: 'chaostoolkit-deny-all-ingress',
  creator: 'deny_all_ingress',
  remover: 'remove_deny_all_ingress',
  // The policy as sent has `ingress: []`; the API server stores an empty list as no list at all.
  storedSpec: (matchLabels) => ({
    podSelector: matchLabels ? { matchLabels } : {},
    policyTypes: ['Ingress'],
  }),
};

export default defineCase({
  activity: denyAllIngressActivity,
  scenarios: [...createScenarios(denyAllIngressPolicy), denyIngressRunning],
});
