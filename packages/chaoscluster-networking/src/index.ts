import { activitiesIn } from '@chaoskit/core';
import * as exported from './activities.js';

export * from './activities.js';
export {
  ALLOW_DNS,
  allowDnsPolicy,
  DENY_ALL_EGRESS,
  DENY_ALL_INGRESS,
  DNS_EGRESS,
  denyAllEgressPolicy,
  denyAllIngressPolicy,
  type LabelSelectors,
  podSelector,
} from './policies.js';
export { checkNetworkPolicy, PolicySpecError, parseNetworkPolicy } from './policy-spec.js';
export type { PolicyResult } from './requests.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities = activitiesIn(exported);
