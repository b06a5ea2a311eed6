import { defineActivity } from '@chaoskit/core';
import { describeRight } from '@chaoskit/core/runner';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { mergeRules, rightsOfCall, roleFor } from './rbac.js';

const activity = (name: string, rbac: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>) =>
  defineActivity({
    name,
    kind: 'action',
    module: 'chaoskit.fixture.actions',
    doc: 'd',
    args: {},
    rbac,
    run: () => 1,
  });

const pods = activity('kill', [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] }]);
const logs = activity('logs', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }]);
const drain = activity('drain', [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
]);

describe('chaoskit rbac', () => {
  it('merges the rules of several activities, verbs united, one rule per group and verbs', () => {
    expect(mergeRules([pods, logs])).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get', 'list'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get', 'list'] },
    ]);
  });

  it('is a Role for namespaced resources and a ClusterRole as soon as one is cluster-wide', () => {
    expect(roleFor([pods], 'r').role).toMatchObject({ kind: 'Role', metadata: { name: 'r' } });
    const { role, ledger, halt, yaml } = roleFor([pods, drain], 'chaos');
    expect(role).toMatchObject({ kind: 'ClusterRole' });
    expect(loadAll(yaml)).toEqual([role, ledger, halt]);
    expect(yaml).toContain('#   chaoskit.fixture.actions.drain');
  });

  it("adds, for actions, the Role of the run's record in the ledger namespace", () => {
    expect(roleFor([pods], 'chaos').ledger).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'chaos-ledger' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['delete', 'patch'] },
        // The operators' key; it is created by someone who may create Secrets, not by this Role (D158).
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['chaoskit-ledger-key'] },
        // The namespace's halt lever (D128), watched by every run that changes the cluster.
        {
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['chaoskit-halt'],
          verbs: ['get', 'list', 'watch'],
        },
      ],
    });
    const probe = defineActivity({
      ...{ name: 'look', module: 'chaoskit.fixture.probes', doc: 'd', args: {} },
      kind: 'probe',
      rbac: [],
      run: () => 1,
    });
    expect(roleFor([probe], 'chaos').ledger).toBeUndefined();
    // The cluster's lever, in kube-system (D159).
    expect(roleFor([pods], 'chaos').halt).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'chaos-halt', namespace: 'kube-system' },
      rules: [
        {
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['chaoskit-halt'],
          verbs: ['get', 'list', 'watch'],
        },
      ],
    });
    expect(roleFor([probe], 'chaos').halt).toBeUndefined();
  });

  it('adds, with the journal kept in the cluster, its Role: its ConfigMap and the Events on the Job', () => {
    const { role, ledger, halt, journal, yaml } = roleFor([pods], 'chaos', { journal: true });
    expect(journal).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'chaos-journal' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create'] },
      ],
    });
    expect(loadAll(yaml)).toEqual([role, ledger, halt, journal]);
    expect(roleFor([pods], 'chaos').journal).toBeUndefined();
  });
});

describe("the rights of one call, as the run's preflight asks them", () => {
  const custom = activity('custom', [{ apiGroups: ['*'], resources: ['*'], verbs: ['list'] }]);
  const asked = (rights: ReturnType<typeof rightsOfCall>) =>
    rights.map((r) => `${describeRight(r)} ${r.namespace ?? '(cluster-wide)'}`);

  it('in the namespace ns names; cluster-wide resources, and an activity without ns, cluster-wide', () => {
    expect(asked(rightsOfCall(pods, { ns: 'shop' }))).toEqual([
      'list pods shop',
      'delete pods shop',
      'get pods shop',
    ]);
    expect(asked(rightsOfCall(drain, { ns: 'shop' }))).toEqual([
      'get nodes (cluster-wide)',
      'patch nodes (cluster-wide)',
      'create pods/eviction shop',
    ]);
    expect(asked(rightsOfCall(drain, {}))).toContain('create pods/eviction (cluster-wide)');
  });

  it('a subresource is asked as the API names it: the resource and its subresource', () => {
    expect(rightsOfCall(drain, {}).at(-1)).toEqual({
      verb: 'create',
      group: '',
      resource: 'pods',
      subresource: 'eviction',
    });
  });

  it('a wildcard rule is narrowed to the group and plural the arguments name, else not asked', () => {
    expect(asked(rightsOfCall(custom, { group: 'chaos.example.com', plural: 'faults', ns: 'shop' }))).toEqual(
      ['list faults.chaos.example.com shop'],
    );
    expect(rightsOfCall(custom, { ns: 'shop' })).toEqual([]);
  });
});
