import { defineActivity } from '@chaoskit/core';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { mergeRules, roleFor } from './rbac.js';

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
    const { role, ledger, yaml } = roleFor([pods, drain], 'chaos');
    expect(role).toMatchObject({ kind: 'ClusterRole' });
    expect(loadAll(yaml)).toEqual([role, ledger]);
    expect(yaml).toContain('#   chaoskit.fixture.actions.drain');
  });

  it("adds, for actions, the Role of the run's record in the ledger namespace", () => {
    expect(roleFor([pods], 'chaos').ledger).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'chaos-ledger' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'delete', 'get', 'list', 'patch'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['chaoskit-ledger-key'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
        // The halt lever (D128), watched by every run that changes the cluster.
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
  });

  it('adds, with the journal kept in the cluster, its Role: its ConfigMap and the Events on the Job', () => {
    const { role, ledger, journal, yaml } = roleFor([pods], 'chaos', { journal: true });
    expect(journal).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'chaos-journal' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] },
        { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create'] },
      ],
    });
    expect(loadAll(yaml)).toEqual([role, ledger, journal]);
    expect(roleFor([pods], 'chaos').journal).toBeUndefined();
  });
});
