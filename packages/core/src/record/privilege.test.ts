import { describe, expect, it } from 'vitest';
import type { TouchedObject } from './entries.js';
import { inconsistency, isBuiltInGroup, privilegedKind, undoRules } from './privilege.js';
import { LedgerKey } from './seal.js';

const ref = (apiVersion: string, plural: string) => ({
  apiVersion,
  plural,
  namespaced: true,
  noun: plural,
  name: 'x',
});
const entry = (apiVersion: string, plural: string, activities: string[], how: Partial<TouchedObject> = {}) =>
  ({ ref: ref(apiVersion, plural), activities, original: {}, written: {}, ...how }) as TouchedObject;

const rules: Record<string, Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>> = {
  'crd.delete': [{ apiGroups: ['*'], resources: ['*'], verbs: ['delete'] }],
  'node.cordon': [{ apiGroups: [''], resources: ['nodes'], verbs: ['list', 'patch'] }],
};
const rulesOf = (activity: string) => rules[activity];

describe('what a verified record may still not make revert do', () => {
  it('names the kinds that carry privilege, as --allow-kind takes them', () => {
    expect(privilegedKind(ref('rbac.authorization.k8s.io/v1', 'clusterrolebindings'))).toBe(
      'clusterrolebindings.rbac.authorization.k8s.io',
    );
    expect(privilegedKind(ref('admissionregistration.k8s.io/v1', 'validatingwebhookconfigurations'))).toBe(
      'validatingwebhookconfigurations.admissionregistration.k8s.io',
    );
    expect(privilegedKind(ref('v1', 'secrets'))).toBe('secrets');
    expect(privilegedKind(ref('v1', 'namespaces'))).toBe('namespaces');
    expect(privilegedKind(ref('apiextensions.k8s.io/v1', 'customresourcedefinitions'))).toBe(
      'customresourcedefinitions.apiextensions.k8s.io',
    );
    expect(privilegedKind(ref('v1', 'nodes'))).toBeUndefined();
    expect(privilegedKind(ref('networking.istio.io/v1', 'virtualservices'))).toBeUndefined();
  });

  it("reads a rule on every group as custom resources only, never Kubernetes' own kinds", () => {
    expect(isBuiltInGroup('')).toBe(true);
    expect(isBuiltInGroup('apps')).toBe(true);
    expect(isBuiltInGroup('rbac.authorization.k8s.io')).toBe(true);
    expect(isBuiltInGroup('networking.istio.io')).toBe(false);
    expect(
      inconsistency(entry('stable.example.com/v1', 'widgets', ['crd.delete'], { deleted: {} }), rulesOf),
    ).toBe(undefined);
    expect(
      inconsistency(
        entry('rbac.authorization.k8s.io/v1', 'clusterrolebindings', ['crd.delete'], { deleted: {} }),
        rulesOf,
      ),
    ).toMatch(
      /crd\.delete did delete clusterrolebindings\.rbac\.authorization\.k8s\.io, which that activity cannot do/,
    );
  });

  it('checks the verb a change needs: a field change needs patch or update, a re-creation delete', () => {
    expect(inconsistency(entry('v1', 'nodes', ['node.cordon']), rulesOf)).toBeUndefined();
    expect(inconsistency(entry('v1', 'nodes', ['node.cordon'], { deleted: {} }), rulesOf)).toMatch(
      /did delete nodes/,
    );
    expect(inconsistency(entry('v1', 'nodes', ['not.installed']), rulesOf)).toMatch(
      /no installed package declares that activity/,
    );
  });
});

describe('the seal', () => {
  it('binds a value to where it is kept: the same text elsewhere does not verify', () => {
    const key = new LedgerKey(Buffer.alloc(32, 7), 'ledger', 'chaoskit-ledger-key');
    const mac = key.seal(['record', 'ledger', 'chaoskit-run-a', 'o-1'], '{"x":1}');
    expect(key.verifies(['record', 'ledger', 'chaoskit-run-a', 'o-1'], '{"x":1}', mac)).toBe(true);
    expect(key.verifies(['record', 'ledger', 'chaoskit-run-b', 'o-1'], '{"x":1}', mac)).toBe(false);
    expect(key.verifies(['record', 'ledger', 'chaoskit-run-a', 'o-1'], '{"x":2}', mac)).toBe(false);
    // Parts are length-prefixed: moving a character between parts changes the seal.
    expect(key.verifies(['record', 'ledger', 'chaoskit-run-ao', '-1'], '{"x":1}', mac)).toBe(false);
    expect(key.verifies(['record', 'ledger', 'chaoskit-run-a', 'o-1'], '{"x":1}', 'ab'.repeat(32))).toBe(
      false,
    );
    expect(key.verifies(['record', 'ledger', 'chaoskit-run-a', 'o-1'], '{"x":1}', undefined)).toBe(false);
    const other = new LedgerKey(Buffer.alloc(32, 8), 'ledger', 'chaoskit-ledger-key');
    expect(other.verifies(['record', 'ledger', 'chaoskit-run-a', 'o-1'], '{"x":1}', mac)).toBe(false);
  });
});

describe('the rights a revert needs', () => {
  it('reads every object and inverts each write, leaving out privileged kinds, pods, subresources and wildcards', () => {
    expect(
      undoRules([
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] },
        {
          apiGroups: ['networking.k8s.io'],
          resources: ['networkpolicies'],
          verbs: ['create', 'delete', 'list'],
        },
        { apiGroups: [''], resources: ['pods', 'pods/eviction', 'services', 'secrets'], verbs: ['delete'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['update'] },
        { apiGroups: ['*'], resources: ['*'], verbs: ['patch'] },
      ]),
    ).toEqual([
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'patch'] },
      {
        apiGroups: ['networking.k8s.io'],
        resources: ['networkpolicies'],
        verbs: ['create', 'delete', 'get'],
      },
      { apiGroups: [''], resources: ['services'], verbs: ['create', 'get'] },
    ]);
  });
});
