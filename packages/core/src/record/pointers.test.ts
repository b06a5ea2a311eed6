import { describe, expect, it } from 'vitest';
import { annotationPointer, diffPointers, patchPointers, sameField, valueAt } from './pointers.js';

describe('the fields a write changes', () => {
  it('are the leaves of a merge patch, lists whole, server fields never', () => {
    expect(
      patchPointers({
        spec: { replicas: 0, template: { spec: { tolerations: [{ key: 'a' }] } } },
        metadata: { annotations: { 'chaoskit.io/run': 'r', 'a/b': 'x' }, resourceVersion: '7' },
        status: { ready: 1 },
      }),
    ).toEqual([
      '/spec/replicas',
      '/spec/template/spec/tolerations',
      '/metadata/annotations/chaoskit.io~1run',
      '/metadata/annotations/a~1b',
    ]);
  });

  it('are where a whole object differs: lists of one length item by item', () => {
    const before = {
      spec: { http: [{ route: 'a' }, { route: 'b', fault: { delay: 1 } }] },
      metadata: { resourceVersion: '1' },
    };
    const after = {
      spec: { http: [{ route: 'a' }, { route: 'b', fault: { delay: 1, abort: 503 } }] },
      metadata: { resourceVersion: '2' },
    };
    expect(diffPointers(before, after)).toEqual(['/spec/http/1/fault/abort']);
    expect(diffPointers({ spec: { l: [1] } }, { spec: { l: [1, 2] } })).toEqual(['/spec/l']);
  });

  it('read back with valueAt, escaped keys included', () => {
    const o = { metadata: { annotations: { 'chaoskit.io/run': 'r1' } }, spec: { http: [{ fault: 'x' }] } };
    expect(valueAt(o, annotationPointer('chaoskit.io/run'))).toEqual({ present: true, value: 'r1' });
    expect(valueAt(o, '/spec/http/0/fault')).toEqual({ present: true, value: 'x' });
    expect(valueAt(o, '/spec/http/1/fault')).toEqual({ present: false });
  });

  it('count an absent field as its zero value, as Kubernetes omits them', () => {
    expect(sameField({ present: false }, { present: true, value: false })).toBe(true);
    expect(sameField({ present: false }, { present: true, value: {} })).toBe(true);
    expect(sameField({ present: false }, { present: true, value: true })).toBe(false);
    expect(
      sameField({ present: true, value: { a: 1, b: 2 } }, { present: true, value: { b: 2, a: 1 } }),
    ).toBe(true);
  });
});
