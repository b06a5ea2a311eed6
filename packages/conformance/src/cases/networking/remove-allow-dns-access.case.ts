import { removeAllowDnsAccessActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { allowDnsAccessPolicy } from './allow-dns-access.case.js';
import { removeScenarios } from './fixtures.js';

export default defineCase({
  activity: removeAllowDnsAccessActivity,
  scenarios: removeScenarios({
    ...allowDnsAccessPolicy,
    // Any policy of that name: the removal does not look at its spec.
    manifest: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'chaostoolkit-allow-dns' },
      spec: { podSelector: {}, policyTypes: ['Egress'] },
    },
  }),
});
