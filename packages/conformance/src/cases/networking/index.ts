import type { ConformanceCase } from '../../case.js';
import allowDnsAccess from './allow-dns-access.case.js';
import createNetworkPolicy from './create-network-policy.case.js';
import denyAllEgress from './deny-all-egress.case.js';
import denyAllIngress from './deny-all-ingress.case.js';
import removeAllowDnsAccess from './remove-allow-dns-access.case.js';
import removeDenyAllEgress from './remove-deny-all-egress.case.js';
import removeDenyAllIngress from './remove-deny-all-ingress.case.js';
import removeNetworkPolicy from './remove-network-policy.case.js';

export const networkingCases: readonly ConformanceCase[] = [
  denyAllIngress,
  removeDenyAllIngress,
  denyAllEgress,
  removeDenyAllEgress,
  allowDnsAccess,
  removeAllowDnsAccess,
  createNetworkPolicy,
  removeNetworkPolicy,
];
