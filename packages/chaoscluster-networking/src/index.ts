import type { AnyActivity } from '@chaoskit/core';
import { allowDnsAccessActivity } from './allow-dns-access.js';
import { createNetworkPolicyActivity } from './create-network-policy.js';
import { denyAllEgressActivity } from './deny-all-egress.js';
import { denyAllIngressActivity } from './deny-all-ingress.js';
import { removeAllowDnsAccessActivity } from './remove-allow-dns-access.js';
import { removeDenyAllEgressActivity } from './remove-deny-all-egress.js';
import { removeDenyAllIngressActivity } from './remove-deny-all-ingress.js';
import { removeNetworkPolicyActivity } from './remove-network-policy.js';

export * from './allow-dns-access.js';
export * from './create-network-policy.js';
export * from './deny-all-egress.js';
export * from './deny-all-ingress.js';
export {
  ALLOW_DNS,
  allowDnsPolicy,
  DENY_ALL_EGRESS,
  DENY_ALL_INGRESS,
  denyAllEgressPolicy,
  denyAllIngressPolicy,
  type LabelSelectors,
  podSelector,
} from './policies.js';
export { checkNetworkPolicy, PolicySpecError, parseNetworkPolicy } from './policy-spec.js';
export * from './remove-allow-dns-access.js';
export * from './remove-deny-all-egress.js';
export * from './remove-deny-all-ingress.js';
export * from './remove-network-policy.js';
export type { PolicyResult } from './requests.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  denyAllIngressActivity,
  removeDenyAllIngressActivity,
  denyAllEgressActivity,
  removeDenyAllEgressActivity,
  allowDnsAccessActivity,
  removeAllowDnsAccessActivity,
  createNetworkPolicyActivity,
  removeNetworkPolicyActivity,
];
