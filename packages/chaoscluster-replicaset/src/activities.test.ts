import { argumentSignature, expectAsDeclared, refusals } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { deleteReplicaSetActivity } from './index.js';

describe('the replicaset activity of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('is delete_replica_set, with the arguments and defaults of 0.25.1', () => {
    expect(argumentSignature(deleteReplicaSetActivity)).toEqual([
      'name*',
      'ns="default"',
      'label_selector="name in ({name})"',
    ]);
    // D14/D78: apps/v1, and the pods that go with them are counted by the pod share rail.
    expect(deleteReplicaSetActivity.rbac).toEqual([
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list', 'delete', 'get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    ]);
  });

  it('checks the selector once {name} is replaced', () => {
    const err = refusals(isChaosError)(() => deleteReplicaSetActivity.validate({ name: 'a b' }));
    expect(err.argument).toBe('label_selector');
  });
});
