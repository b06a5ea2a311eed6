import { removeDenyAllIngressActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { denyAllIngressPolicy } from './deny-all-ingress.case.js';
import { removeScenarios } from './fixtures.js';

export default defineCase({
  activity: removeDenyAllIngressActivity,
  scenarios: removeScenarios({
    ...denyAllIngressPolicy,
    // Any policy of that name: the removal does not look at its spec.
    manifest: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'chaostoolkit-deny-all-ingress' },
      spec: { podSelector: {}, policyTypes: ['Ingress'] },
    },
  }),
});
