import { ApiError, isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { applyBody, checkCustomObject } from './body.js';
import { mergeListPages } from './custom-objects.js';
import { explainMissingResource } from './discovery.js';
import {
  alreadyExistsFailure,
  applyConflictFailure,
  applyConflicts,
  isStaleVersion,
  type Operation,
} from './failures.js';
import { describeObject, targetOf } from './target.js';

const ns: Operation = {
  verb: 'get',
  target: { group: 'ex.test', version: 'v1', plural: 'widgets', namespace: 'shop' },
  name: 'w1',
  variants: { namespaced: 'get_custom_object', cluster: 'get_cluster_custom_object' },
};
const cluster: Operation = { ...ns, target: { group: 'ex.test', version: 'v1', plural: 'widgets' } };

describe('checkCustomObject', () => {
  it('accepts a mapping with a grouped apiVersion and a kind', () => {
    const doc = { apiVersion: 'ex.test/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} };
    expect(checkCustomObject(doc)).toBe(doc);
    expect(checkCustomObject({ apiVersion: 'ex.test/v1', kind: 'Widget' })).toBeTruthy();
  });

  it.each([
    [[], /a list, not a mapping/],
    [null, /null, not a mapping/],
    ['text', /a string, not a mapping/],
    [{ kind: 'Widget' }, /no apiVersion/],
    [{ apiVersion: 'v1', kind: 'Widget' }, /'v1' names no API group/],
    [{ apiVersion: 'ex.test/v1' }, /no kind/],
    [{ apiVersion: 'ex.test/v1', kind: 'W', metadata: [] }, /metadata is a list/],
    [{ apiVersion: 'ex.test/v1', kind: 'W', metadata: { name: 3 } }, /metadata.name is a number/],
    [
      { apiVersion: 'ex.test/v1', kind: 'W', metadata: { resourceVersion: 12 } },
      /resourceVersion is a number/,
    ],
  ])('refuses %j', (doc, reason) => {
    expect(() => checkCustomObject(doc)).toThrow(reason);
  });
});

describe('mergeListPages', () => {
  it('keeps the first page as the list object, every item, and no continue token', () => {
    const merged = mergeListPages([
      {
        apiVersion: 'ex.test/v1',
        kind: 'WidgetList',
        metadata: { continue: 'abc', resourceVersion: '7', remainingItemCount: 1 },
        items: [{ a: 1 }],
      },
      {
        apiVersion: 'ex.test/v1',
        kind: 'WidgetList',
        metadata: { continue: '', resourceVersion: '7' },
        items: [{ a: 2 }],
      },
    ]);
    expect(merged).toEqual({
      apiVersion: 'ex.test/v1',
      kind: 'WidgetList',
      metadata: { resourceVersion: '7' },
      items: [{ a: 1 }, { a: 2 }],
    });
  });

  it('treats an absent items as empty', () => {
    expect(mergeListPages([{ kind: 'WidgetList' }])).toEqual({ kind: 'WidgetList', metadata: {}, items: [] });
    expect(mergeListPages([])).toEqual({ items: [] });
  });
});

describe('explainMissingResource', () => {
  const served = {
    served: true as const,
    resources: [
      { name: 'widgets', namespaced: true },
      { name: 'widgets/status', namespaced: true },
      { name: 'gadgets', namespaced: false },
    ],
  };

  it('says the definition is missing when the group version is not served', () => {
    expect(explainMissingResource(ns, { served: false })).toMatch(
      /^the custom resource definition is missing: the cluster serves no API ex.test\/v1/,
    );
  });

  it('says the definition is missing when the plural is not served, and lists what is', () => {
    const op = { ...ns, target: { ...ns.target, plural: 'widgetz' } };
    expect(explainMissingResource(op, served)).toBe(
      "the custom resource definition is missing: ex.test/v1 serves no resource 'widgetz' (it serves gadgets, widgets; install the definition of widgetz.ex.test, or check the plural)",
    );
  });

  it('points at the other variant when the scope is wrong', () => {
    expect(explainMissingResource(cluster, served)).toBe(
      'widgets.ex.test is namespaced: use get_custom_object with ns, not get_cluster_custom_object',
    );
    const op = { ...ns, target: { ...ns.target, plural: 'gadgets' } };
    expect(explainMissingResource(op, served)).toMatch(
      /gadgets.ex.test is cluster-scoped: use get_cluster_custom_object/,
    );
  });

  it('explains nothing when the resource is served in that scope, or discovery failed', () => {
    expect(explainMissingResource(ns, served)).toBeUndefined();
    expect(explainMissingResource(ns, { error: 'Forbidden' })).toBeUndefined();
  });
});

function apiError(status: number, body: Record<string, unknown>): ApiError {
  const code = status === 409 ? 'Conflict' : 'NotFound';
  return new ApiError(code, {
    status,
    reason: String(body.reason ?? ''),
    serverMessage: String(body.message ?? ''),
    body,
  });
}

describe('apply conflicts', () => {
  const conflict = apiError(409, {
    kind: 'Status',
    reason: 'Conflict',
    message:
      'Apply failed with 3 conflicts: conflict with "team-a": .spec.a, .spec.b; conflict with "kubectl" using ex.test/v1: .spec.c',
    details: {
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "team-a"', field: '.spec.a' },
        { reason: 'FieldManagerConflict', message: 'conflict with "team-a"', field: '.spec.b' },
        {
          reason: 'FieldManagerConflict',
          message: 'conflict with "kubectl" using ex.test/v1',
          field: '.spec.c',
        },
      ],
    },
  });

  it('groups the conflicting fields by field manager', () => {
    expect([...applyConflicts(conflict)]).toEqual([
      ['team-a', ['.spec.a', '.spec.b']],
      ['kubectl', ['.spec.c']],
    ]);
    expect(applyConflicts(apiError(409, { reason: 'Conflict', message: 'stale' })).size).toBe(0);
    expect(applyConflicts(new Error('boom')).size).toBe(0);
  });

  it('names the fields, the managers and force in the failure', () => {
    const err = applyConflictFailure(conflict, { ...ns, verb: 'patch' });
    expect(isChaosError(err, 'ActivityFailed')).toBe(true);
    expect(err.message).toBe(
      `failed to patch custom object 'w1' of widgets.ex.test/v1 in namespace 'shop': conflict with other field managers: .spec.a, .spec.b owned by field manager "team-a"; .spec.c owned by field manager "kubectl"; nothing was changed (set force: true to take these fields over as field manager "chaoskit")`,
    );
  });
});

describe('isStaleVersion', () => {
  it('is the 409 of a resourceVersion that is not the current one, not any conflict', () => {
    const stale = apiError(409, {
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on widgets.ex.test "w1": the object has been modified; please apply your changes to the latest version and try again',
    });
    const uid = apiError(409, {
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on widgets.ex.test "w1": Precondition failed: UID in precondition: a, UID in object meta: b',
    });
    expect(isStaleVersion(stale)).toBe(true);
    expect(isStaleVersion(uid)).toBe(false);
    expect(isStaleVersion(apiError(404, { reason: 'NotFound', message: 'has been modified' }))).toBe(false);
  });
});

describe('messages', () => {
  it('describes namespaced and cluster-wide objects', () => {
    expect(describeObject(ns.target, 'w1')).toBe(
      "custom object 'w1' of widgets.ex.test/v1 in namespace 'shop'",
    );
    expect(describeObject(cluster.target, undefined)).toBe(
      'custom objects of widgets.ex.test/v1 cluster-wide',
    );
  });

  it('says an existing object was left alone', () => {
    const exists = apiError(409, { reason: 'AlreadyExists', message: 'widgets.ex.test "w1" already exists' });
    expect(alreadyExistsFailure(exists, { ...ns, verb: 'create' }, 'patch_custom_object').message).toBe(
      `failed to create custom object 'w1' of widgets.ex.test/v1 in namespace 'shop': it already exists (widgets.ex.test "w1" already exists); nothing was created (delete it first, or change it with patch_custom_object)`,
    );
  });

  it('targets the namespace only for the namespaced variants', () => {
    expect(targetOf({ group: 'g', version: 'v', plural: 'p', ns: 'n' })).toEqual({
      group: 'g',
      version: 'v',
      plural: 'p',
      namespace: 'n',
    });
    expect(targetOf({ group: 'g', version: 'v', plural: 'p' })).toEqual({
      group: 'g',
      version: 'v',
      plural: 'p',
    });
  });
});

describe('applyBody', () => {
  it('names and places the object and drops managedFields, keeping the rest', () => {
    const body = applyBody(
      {
        apiVersion: 'ex.test/v1',
        kind: 'Widget',
        metadata: { labels: { a: 'b' }, managedFields: [{ manager: 'x' }], resourceVersion: '5' },
        spec: { x: 1 },
      },
      'w1',
      'shop',
    );
    expect(body).toEqual({
      apiVersion: 'ex.test/v1',
      kind: 'Widget',
      metadata: { labels: { a: 'b' }, resourceVersion: '5', name: 'w1', namespace: 'shop' },
      spec: { x: 1 },
    });
    expect(applyBody({ apiVersion: 'ex.test/v1', kind: 'Widget' }, 'w1', undefined)).toEqual({
      apiVersion: 'ex.test/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
    });
  });
});
