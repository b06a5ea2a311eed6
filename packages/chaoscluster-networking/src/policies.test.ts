// The generated policies, byte for byte those of 0.25.1's networking actions, and the label_selectors rules.
import { describe, expect, it } from 'vitest';
import {
  ALLOW_DNS,
  allowDnsPolicy,
  DENY_ALL_EGRESS,
  DENY_ALL_INGRESS,
  denyAllEgressPolicy,
  denyAllIngressPolicy,
  labelProblem,
  podSelector,
} from './policies.js';

describe('the generated network policies', () => {
  it('deny_all_ingress: every pod, policy type Ingress, an empty ingress list', () => {
    expect(JSON.stringify(denyAllIngressPolicy(null))).toBe(
      '{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"chaostoolkit-deny-all-ingress"},"spec":{"podSelector":{},"policyTypes":["Ingress"],"ingress":[]}}',
    );
  });

  it('deny_all_egress: policy type Egress and no egress key at all', () => {
    const policy = denyAllEgressPolicy({ app: 'web' });
    expect(JSON.stringify(policy)).toBe(
      '{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"chaostoolkit-deny-all-egress"},"spec":{"podSelector":{"matchLabels":{"app":"web"}},"policyTypes":["Egress"]}}',
    );
    expect(policy.spec).not.toHaveProperty('egress');
  });

  it('allow_dns_access: egress to every namespace on port 53, UDP then TCP', () => {
    expect(JSON.stringify(allowDnsPolicy(undefined))).toBe(
      '{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"chaostoolkit-allow-dns"},"spec":{"podSelector":{},"policyTypes":["Egress"],"egress":[{"to":[{"namespaceSelector":{}}],"ports":[{"port":53,"protocol":"UDP"},{"port":53,"protocol":"TCP"}]}]}}',
    );
  });

  it('keep the Python original names, so rollbacks written for it still match', () => {
    expect([DENY_ALL_INGRESS, DENY_ALL_EGRESS, ALLOW_DNS]).toEqual([
      'chaostoolkit-deny-all-ingress',
      'chaostoolkit-deny-all-egress',
      'chaostoolkit-allow-dns',
    ]);
    for (const make of [denyAllIngressPolicy, denyAllEgressPolicy, allowDnsPolicy]) {
      expect(Object.keys(make(null).metadata ?? {})).toEqual(['name']);
    }
  });

  it('select every pod with no labels or an empty mapping, else matchLabels (a copy)', () => {
    expect(podSelector(null)).toEqual({});
    expect(podSelector(undefined)).toEqual({});
    expect(podSelector({})).toEqual({});
    const labels = { app: 'web', 'example.com/tier': 'front' };
    const selector = podSelector(labels);
    expect(selector).toEqual({ matchLabels: labels });
    expect(selector.matchLabels).not.toBe(labels);
  });
});

describe('labelProblem', () => {
  it('accepts what a pod label may be, the empty value included', () => {
    for (const [key, value] of [
      ['app', 'web'],
      ['app.kubernetes.io/name', 'shop-front_1.2'],
      ['tier', ''],
      ['a', 'x'.repeat(63)],
    ] as const) {
      expect(labelProblem(key, value), `${key}: ${value}`).toBeUndefined();
    }
  });

  it('refuses keys and values the apiserver refuses, without positions in a selector', () => {
    for (const [key, value, reason] of [
      ['bad key', 'x', /./],
      ['app', 'has space', /./],
      ['app', 'a,b', /./],
      ['app', '-dash', /value/],
      ['Example.com/app', 'x', /prefix/],
      ['', 'x', /./],
      ['app', 'x'.repeat(64), /63/],
      ['app=web', 'x', /./],
    ] as const) {
      const problem = labelProblem(key, value);
      expect(problem, `${key}: ${value}`).toMatch(reason);
      expect(problem).not.toMatch(/position/);
    }
  });
});
