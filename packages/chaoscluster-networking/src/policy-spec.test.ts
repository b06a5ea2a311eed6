// A checked policy goes to the API with the API's field names: `from`, never client-node's `_from`.
import { describe, expect, it } from 'vitest';
import { checkNetworkPolicy, toApiFields } from './policy-spec.js';

const from = [{ podSelector: { matchLabels: { role: 'front' } } }, { ipBlock: { cidr: '10.0.0.0/8' } }];
const policy = (rule: Record<string, unknown>) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'web-only', labels: { team: 'shop' } },
  spec: {
    podSelector: { matchLabels: { app: 'web' } },
    policyTypes: ['Ingress', 'Egress'],
    ingress: [{ ...rule, ports: [{ port: 80, protocol: 'TCP' }] }],
    egress: [{ to: [{ namespaceSelector: {} }] }],
  },
});

describe('toApiFields', () => {
  it('sends the document as written, whether it said `from` or `_from`', () => {
    expect(toApiFields(checkNetworkPolicy(policy({ from })))).toEqual(policy({ from }));
    expect(toApiFields(checkNetworkPolicy(policy({ _from: from })))).toEqual(policy({ from }));
  });

  it('leaves a policy without ingress rules as it is', () => {
    const { ingress: _, ...spec } = policy({}).spec;
    const doc = { ...policy({}), spec };
    expect(toApiFields(checkNetworkPolicy(doc))).toEqual(doc);
  });
});
