import { denyAllEgressActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { denyEgressRunning } from '../../running/network-scenarios.js';
import { createScenarios, type GeneratedPolicy } from './fixtures.js';

export const denyAllEgressPolicy: GeneratedPolicy = {
  policy: 'chaostoolkit-deny-all-egress',
  creator: 'deny_all_egress',
  remover: 'remove_deny_all_egress',
  storedSpec: (matchLabels) => ({
    podSelector: matchLabels ? { matchLabels } : {},
    policyTypes: ['Egress'],
  }),
};

export default defineCase({
  activity: denyAllEgressActivity,
  scenarios: [...createScenarios(denyAllEgressPolicy), denyEgressRunning],
});
