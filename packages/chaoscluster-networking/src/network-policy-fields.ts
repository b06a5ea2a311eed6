// The fields of a networking.k8s.io/v1 NetworkPolicy, object by object, under the API's names:
// what create_network_policy accepts in a document. A table of our own, so that checking a
// document loads no client library; network-policy-fields.test.ts holds it to client-node's
// models, so it follows the API they are generated from.

/**
 * What a field holds: `value` (a string, number, boolean or timestamp, not checked here), `map`
 * (a mapping of strings to strings), another object of the table, or a list of one of these.
 */
export type FieldType = 'value' | 'map' | ObjectName | `${'value' | ObjectName}[]`;

export type ObjectName = keyof typeof OBJECTS;

// In the order of the API's documentation (client-node's), which is the order refusals list them.
export const OBJECTS = {
  NetworkPolicy: { apiVersion: 'value', kind: 'value', metadata: 'ObjectMeta', spec: 'NetworkPolicySpec' },
  ObjectMeta: {
    annotations: 'map',
    creationTimestamp: 'value',
    deletionGracePeriodSeconds: 'value',
    deletionTimestamp: 'value',
    finalizers: 'value[]',
    generateName: 'value',
    generation: 'value',
    labels: 'map',
    managedFields: 'ManagedFieldsEntry[]',
    name: 'value',
    namespace: 'value',
    ownerReferences: 'OwnerReference[]',
    resourceVersion: 'value',
    selfLink: 'value',
    uid: 'value',
  },
  OwnerReference: {
    apiVersion: 'value',
    blockOwnerDeletion: 'value',
    controller: 'value',
    kind: 'value',
    name: 'value',
    uid: 'value',
  },
  ManagedFieldsEntry: {
    apiVersion: 'value',
    fieldsType: 'value',
    fieldsV1: 'value',
    manager: 'value',
    operation: 'value',
    subresource: 'value',
    time: 'value',
  },
  NetworkPolicySpec: {
    egress: 'NetworkPolicyEgressRule[]',
    ingress: 'NetworkPolicyIngressRule[]',
    podSelector: 'LabelSelector',
    policyTypes: 'value[]',
  },
  NetworkPolicyIngressRule: { from: 'NetworkPolicyPeer[]', ports: 'NetworkPolicyPort[]' },
  NetworkPolicyEgressRule: { ports: 'NetworkPolicyPort[]', to: 'NetworkPolicyPeer[]' },
  NetworkPolicyPeer: {
    ipBlock: 'IPBlock',
    namespaceSelector: 'LabelSelector',
    podSelector: 'LabelSelector',
  },
  NetworkPolicyPort: { endPort: 'value', port: 'value', protocol: 'value' },
  IPBlock: { cidr: 'value', except: 'value[]' },
  LabelSelector: { matchExpressions: 'LabelSelectorRequirement[]', matchLabels: 'map' },
  LabelSelectorRequirement: { key: 'value', operator: 'value', values: 'value[]' },
} as const satisfies Record<string, Record<string, string>>;

/**
 * Where client-node's TypeScript models name a field otherwise than the API (`from` is a
 * reserved word there): a TypeScript caller typing a V1NetworkPolicy writes these.
 */
export const PROPERTY_NAMES: Partial<Record<ObjectName, Record<string, string>>> = {
  NetworkPolicyIngressRule: { from: '_from' },
};
