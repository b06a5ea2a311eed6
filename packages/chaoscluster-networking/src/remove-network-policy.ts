import { defineActivity, namespaceArg, z } from '@chaoskit/core';
import { DELETE_RBAC, MODULE, removePolicy } from './policies.js';

// RFC 1123 subdomain, as Kubernetes requires of a NetworkPolicy's name.
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const removeNetworkPolicyActivity = defineActivity({
  name: 'remove_network_policy',
  kind: 'action',
  module: MODULE,
  doc: 'Removes the network policy called name from namespace ns. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  args: {
    name: z
      .string()
      .superRefine((value, ctx) => {
        if (value.length > 253 || !DNS_SUBDOMAIN.test(value)) {
          ctx.addIssue({
            code: 'custom',
            message:
              'a network policy name: lower-case letters, digits, "-" and ".", at most 253, starting and ending alphanumeric',
          });
        }
      })
      .describe('Name of the network policy to remove.'),
    ns: namespaceArg('Namespace of the policy.'),
  },
  rbac: DELETE_RBAC,
  run: (args, ctx) => removePolicy(ctx, args.ns, args.name),
});

export const removeNetworkPolicy = removeNetworkPolicyActivity.fn;
