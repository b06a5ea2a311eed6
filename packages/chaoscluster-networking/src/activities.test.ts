// The activities of chaoscluster.networking.actions, as in 0.25.1, and what is refused before any request.
import { join } from 'node:path';
import { argumentSignature, expectAsDeclared, refusals, scratchFiles } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { createNetworkPolicyActivity } from './create-network-policy.js';
import { denyAllIngressActivity } from './deny-all-ingress.js';
import { activities } from './index.js';
import { parseNetworkPolicy } from './policy-spec.js';
import { removeNetworkPolicyActivity } from './remove-network-policy.js';

const { dir, write: file } = scratchFiles('chaoskit-networking-');

const refusal = refusals(isChaosError);

const policyDoc = (name = 'web-only', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, ...extra },
  spec: { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress'] },
});

describe('the activities of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares the eight operations with their arguments and defaults', () => {
    const shape = Object.fromEntries(activities.map((a) => [a.name, argumentSignature(a)]));
    expect(shape).toMatchObject({
      allow_dns_access: ['label_selectors=null', 'ns="default"'],
      remove_allow_dns_access: ['ns="default"'],
      deny_all_egress: ['label_selectors=null', 'ns="default"'],
      remove_deny_all_egress: ['ns="default"'],
      deny_all_ingress: ['label_selectors=null', 'ns="default"'],
      remove_deny_all_ingress: ['ns="default"'],
      create_network_policy: ['spec=null', 'spec_path=null', 'ns="default"'],
      remove_network_policy: ['name*', 'ns="default"'],
    });
    for (const a of activities) {
      expect(a.module).toBe('chaoscluster.networking.actions');
      expect(a.kind).toBe('action');
      expect(a.deprecated).toBe(false);
      expect(a.rbac).toEqual([
        {
          apiGroups: ['networking.k8s.io'],
          resources: ['networkpolicies'],
          // get: the run's record reads a policy before it deletes it.
          verbs: a.name.startsWith('remove_') ? ['delete', 'get'] : ['create'],
        },
      ]);
    }
  });

  it('describes label_selectors as a mapping of strings and spec_path as a string in the JSON Schema', () => {
    const ingress = denyAllIngressActivity.jsonSchema() as { properties: Record<string, unknown> };
    expect(JSON.stringify(ingress.properties.label_selectors)).toContain(
      '"additionalProperties":{"type":"string"}',
    );
    const create = createNetworkPolicyActivity.jsonSchema() as {
      properties: Record<string, unknown>;
      required?: string[];
    };
    expect(create.properties.spec_path).toMatchObject({ type: ['string', 'null'] });
    expect(create.required ?? []).toEqual([]);
  });
});

describe('label_selectors', () => {
  it('accepts a mapping and null', () => {
    expect(denyAllIngressActivity.validate({ label_selectors: { app: 'web' } }).label_selectors).toEqual({
      app: 'web',
    });
    expect(denyAllIngressActivity.validate({}).label_selectors).toBeNull();
  });

  it('refuses a selector string (upstream issue #139), saying to write a mapping', () => {
    const err = refusal(() => denyAllIngressActivity.validate({ label_selectors: 'app=web' }));
    expect(err.argument).toBe('label_selectors');
    expect(err.message).toContain('a mapping of label names to values');
    expect(err.message).toContain("got the string 'app=web'");
  });

  it('refuses values that are not strings and keys or values the apiserver refuses', () => {
    expect(refusal(() => denyAllIngressActivity.validate({ label_selectors: { app: 5 } })).message).toMatch(
      /label_selectors\.app/,
    );
    expect(
      refusal(() => denyAllIngressActivity.validate({ label_selectors: { 'bad key': 'x' } })).argument,
    ).toBe('label_selectors');
    expect(
      refusal(() => denyAllIngressActivity.validate({ label_selectors: { app: 'not valid!' } })).argument,
    ).toBe('label_selectors');
    expect(refusal(() => denyAllIngressActivity.validate({ label_selectors: ['app=web'] })).argument).toBe(
      'label_selectors',
    );
  });
});

describe('create_network_policy arguments', () => {
  it('takes a policy from spec, filling an absent apiVersion', () => {
    const { apiVersion, ...withoutVersion } = policyDoc();
    const args = createNetworkPolicyActivity.validate({ spec: withoutVersion });
    expect(args.spec?.apiVersion).toBe(apiVersion);
    expect(args.spec?.spec).toEqual(policyDoc().spec);
  });

  it('reads a JSON, .yaml or .yml file at spec_path while validating', () => {
    for (const [name, text] of [
      ['p.json', JSON.stringify(policyDoc())],
      ['p.yaml', dump(policyDoc())],
      ['p.YML', `# comment\n---\n${dump(policyDoc())}`],
    ] as const) {
      const args = createNetworkPolicyActivity.validate({ spec_path: file(name, text) });
      expect(args.spec_path?.body.metadata?.name).toBe('web-only');
    }
  });

  it('refuses neither and both of spec and spec_path', () => {
    expect(refusal(() => createNetworkPolicyActivity.validate({})).argument).toBe('spec');
    const both = refusal(() =>
      createNetworkPolicyActivity.validate({
        spec: policyDoc(),
        spec_path: file('b.json', JSON.stringify(policyDoc())),
      }),
    );
    expect(both.argument).toBe('spec_path');
    expect(both.message).toContain('not both');
  });

  it('refuses documents that are not one networking.k8s.io/v1 NetworkPolicy', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ ...policyDoc(), kind: 'Deployment' }, /"Deployment", not a NetworkPolicy/],
      [{ ...policyDoc(), kind: undefined }, /no kind/],
      [{ ...policyDoc(), apiVersion: 'extensions/v1beta1' }, /apiVersion is "extensions\/v1beta1"/],
      [{ ...policyDoc(), metadata: {} }, /no metadata\.name/],
      [{ ...policyDoc(), metadata: undefined }, /no metadata/],
      [{ ...policyDoc(), spec: 'deny' }, /no spec/],
    ];
    for (const [spec, reason] of bad) {
      const err = refusal(() => createNetworkPolicyActivity.validate({ spec }));
      expect(err.argument).toBe('spec');
      expect(err.message).toMatch(reason);
    }
    expect(
      refusal(() => createNetworkPolicyActivity.validate({ spec: 'kind: NetworkPolicy' })).argument,
    ).toBe('spec');
  });

  it('refuses bad files as spec_path, with the reason', () => {
    const bad: Array<[string, RegExp]> = [
      [join(dir, 'missing.yaml'), /no such file/],
      [file('p.txt', dump(policyDoc())), /extension '\.txt'/],
      [file('broken.yaml', 'kind: NetworkPolicy\n  metadata: [oops\n'), /not valid YAML/],
      [file('broken.json', '{"kind": '), /not valid JSON/],
      [file('two.yaml', `${dump(policyDoc('a'))}---\n${dump(policyDoc('b'))}`), /2 documents/],
      [
        file('svc.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n'),
        /"Service", not a NetworkPolicy/,
      ],
    ];
    for (const [path, reason] of bad) {
      const err = refusal(() => createNetworkPolicyActivity.validate({ spec_path: path }));
      expect(err.argument).toBe('spec_path');
      expect(err.message).toMatch(reason);
    }
  });

  it('refuses a policy that names another namespace than ns', () => {
    const err = refusal(() =>
      createNetworkPolicyActivity.validate({ spec: policyDoc('p', { namespace: 'other' }), ns: 'shop' }),
    );
    expect(err.argument).toBe('ns');
    expect(err.message).toContain("'other'");
    expect(
      createNetworkPolicyActivity.validate({ spec: policyDoc('p', { namespace: 'shop' }), ns: 'shop' }).ns,
    ).toBe('shop');
  });

  it("keeps an ingress rule's `from` (client-node's model calls it `_from`) and refuses unknown fields", () => {
    const from = [
      { podSelector: { matchLabels: { role: 'front' } } },
      { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } },
    ];
    const doc = { ...policyDoc(), spec: { ...policyDoc().spec, ingress: [{ from, ports: [{ port: 80 }] }] } };
    const args = createNetworkPolicyActivity.validate({ spec: doc });
    expect(args.spec?.spec?.ingress?.[0]?._from).toEqual(from);
    // A TypeScript caller with a typed V1NetworkPolicy writes `_from`: accepted too.
    const typed = { ...policyDoc(), spec: { ...policyDoc().spec, ingress: [{ _from: from }] } };
    expect(createNetworkPolicyActivity.validate({ spec: typed }).spec?.spec?.ingress?.[0]?._from).toEqual(
      from,
    );
    const bad: Array<[unknown, RegExp]> = [
      [
        { ...policyDoc(), spec: { ...policyDoc().spec, podSelectr: {} } },
        /'spec\.podSelectr' is not a field/,
      ],
      [{ ...policyDoc(), spec: { ...policyDoc().spec, ingress: [{ From: from }] } }, /did you mean 'from'/],
      [
        { ...policyDoc(), spec: { ...policyDoc().spec, policyTypes: 'Ingress' } },
        /spec\.policyTypes must be a list/,
      ],
      [
        { ...policyDoc(), spec: { ...policyDoc().spec, podSelector: 'app=web' } },
        /spec\.podSelector must be a mapping/,
      ],
      [{ ...policyDoc(), status: {} }, /'status' is not a field/],
    ];
    for (const [spec, reason] of bad) {
      const err = refusal(() => createNetworkPolicyActivity.validate({ spec }));
      expect(err.argument).toBe('spec');
      expect(err.message).toMatch(reason);
    }
  });

  it('parses policy text the same way (for programmatic use)', () => {
    expect(parseNetworkPolicy(dump(policyDoc()), 'yaml').metadata?.name).toBe('web-only');
  });
});

describe('remove_network_policy arguments', () => {
  it('needs a valid object name', () => {
    expect(refusal(() => removeNetworkPolicyActivity.validate({})).argument).toBe('name');
    expect(refusal(() => removeNetworkPolicyActivity.validate({ name: 'Not_Valid' })).argument).toBe('name');
    expect(removeNetworkPolicyActivity.validate({ name: 'web-only' })).toEqual({
      name: 'web-only',
      ns: 'default',
    });
  });
});
