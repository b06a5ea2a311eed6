// The network policies of chaoscluster.networking.actions, declared once: their names, their
// manifests (those of 0.25.1's networking actions, byte for byte), and the `label_selectors`
// argument that says which pods they apply to.

import { accepting, parseLabelSelector, z } from '@chaoskit/core';
import type { V1LabelSelector, V1NetworkPolicy } from '@kubernetes/client-node';

/** The names of the policies the helpers create (the Python original's, so rollbacks match). */
export const DENY_ALL_INGRESS = 'chaostoolkit-deny-all-ingress';
export const DENY_ALL_EGRESS = 'chaostoolkit-deny-all-egress';
export const ALLOW_DNS = 'chaostoolkit-allow-dns';

export const API_VERSION = 'networking.k8s.io/v1';

/** Label name → value: the pods a generated policy applies to. */
export type LabelSelectors = Record<string, string>;

// ---------------------------------------------------------------------------------------------
// label_selectors
// ---------------------------------------------------------------------------------------------

const LABELS_ACCEPTED =
  'a mapping of label names to values, such as {app: web, tier: front} (a selector string such as "app=web" is not accepted: write it as a mapping)';

/**
 * Why `key: value` cannot be a label of a pod, or undefined. The apiserver's own rules, checked
 * by core's selector parser on the equality `key=value` it stands for.
 */
export function labelProblem(key: string, value: string): string | undefined {
  try {
    const [only, ...more] = parseLabelSelector(`${key}=${value}`);
    if (
      only &&
      more.length === 0 &&
      only.key === key &&
      only.operator === '=' &&
      only.values.length === 1 &&
      only.values[0] === value
    )
      return undefined;
    return `'${key}: ${value}' is not one label name with its value`;
  } catch (err) {
    // The parser speaks of positions in the selector text, which the user never wrote.
    return (err as Error).message.replace(/ at position \d+/, '');
  }
}

/** `label_selectors`: a mapping (upstream issue #139: a selector string was sent as matchLabels). */
export function labelSelectorsArg(doc: string) {
  const mapping = z.record(z.string(), z.string()).superRefine((labels, ctx) => {
    for (const [key, value] of Object.entries(labels)) {
      const problem = labelProblem(key, value);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `${LABELS_ACCEPTED}; ${problem}`, input: labels });
        return;
      }
    }
  });
  return accepting(mapping.nullable().default(null).describe(doc), `${LABELS_ACCEPTED}, or null`);
}

// ---------------------------------------------------------------------------------------------
// The manifests: those of 0.25.1's networking actions, byte for byte
// ---------------------------------------------------------------------------------------------

/** `{}` (every pod of the namespace) when no label is given, else `{matchLabels}`. */
export function podSelector(labelSelectors: LabelSelectors | null | undefined): V1LabelSelector {
  return labelSelectors && Object.keys(labelSelectors).length > 0
    ? { matchLabels: { ...labelSelectors } }
    : {};
}

function policy(name: string, spec: NonNullable<V1NetworkPolicy['spec']>): V1NetworkPolicy {
  return { apiVersion: API_VERSION, kind: 'NetworkPolicy', metadata: { name }, spec };
}

/** deny_all_ingress: the selected pods accept no incoming traffic. */
export function denyAllIngressPolicy(labelSelectors?: LabelSelectors | null): V1NetworkPolicy {
  return policy(DENY_ALL_INGRESS, {
    podSelector: podSelector(labelSelectors),
    policyTypes: ['Ingress'],
    ingress: [],
  });
}

/** deny_all_egress: the selected pods send no outgoing traffic (no `egress` key at all). */
export function denyAllEgressPolicy(labelSelectors?: LabelSelectors | null): V1NetworkPolicy {
  return policy(DENY_ALL_EGRESS, { podSelector: podSelector(labelSelectors), policyTypes: ['Egress'] });
}

/** allow_dns_access's rule: port 53, UDP then TCP, in every namespace. */
export const DNS_EGRESS: NonNullable<V1NetworkPolicy['spec']>['egress'] = [
  {
    to: [{ namespaceSelector: {} }],
    ports: [
      { port: 53, protocol: 'UDP' },
      { port: 53, protocol: 'TCP' },
    ],
  },
];

/** allow_dns_access: the selected pods may reach port 53 (UDP and TCP) in every namespace. */
export function allowDnsPolicy(labelSelectors?: LabelSelectors | null): V1NetworkPolicy {
  return policy(ALLOW_DNS, {
    podSelector: podSelector(labelSelectors),
    policyTypes: ['Egress'],
    egress: DNS_EGRESS,
  });
}
