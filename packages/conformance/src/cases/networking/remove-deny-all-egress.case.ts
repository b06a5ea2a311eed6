import { removeDenyAllEgressActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { denyAllEgressPolicy } from './deny-all-egress.case.js';
import { removeScenarios } from './fixtures.js';

export default defineCase({
  activity: removeDenyAllEgressActivity,
  scenarios: removeScenarios({
    ...denyAllEgressPolicy,
    // Any policy of that name: the removal does not look at its spec.
    manifest: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'chaostoolkit-deny-all-egress' },
      spec: { podSelector: {}, policyTypes: ['Egress'] },
    },
  }),
});
