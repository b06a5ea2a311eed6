import { describe, expect, it } from 'vitest';
import { withoutManagedFields } from './managed-fields.js';

/** A pod's metadata as the apiserver writes it, with managedFields whose text looks like structure. */
const item = (name: string, managed = true) => ({
  kind: 'PartialObjectMetadata',
  apiVersion: 'meta.k8s.io/v1',
  metadata: {
    name,
    namespace: 'shop',
    labels: { app: 'web', managedFields: '[not these]' },
    annotations: { note: '"managedFields":[ in a string ] }' },
    ...(managed
      ? {
          managedFields: [
            {
              manager: 'kubectl "quoted" \\ ]}',
              fieldsV1: { 'f:spec': { 'k:{"name":"app"}': { '.': {}, 'f:image': {} } } },
            },
          ],
        }
      : {}),
    creationTimestamp: '2026-11-26T20:20:00Z',
  },
});

const listOf = (items: unknown[]) =>
  JSON.stringify({ kind: 'PartialObjectMetadataList', metadata: { resourceVersion: '7' }, items });

/** What dropping the member after parsing gives: the answer the cut text must parse to. */
const parsedWithout = (text: string) => {
  const list = JSON.parse(text) as { items: Array<{ metadata: Record<string, unknown> }> };
  for (const i of list.items) delete i.metadata.managedFields;
  return list;
};

describe('withoutManagedFields: a metadata page cut before it is parsed', () => {
  it('parses to the page without each item’s managedFields, and keeps everything else', () => {
    const text = listOf([item('web-0'), item('web-1', false), item('web-2')]);
    const cut = withoutManagedFields(text);
    expect(cut.length).toBeLessThan(text.length);
    expect(cut).not.toContain('"manager"');
    expect(JSON.parse(cut)).toEqual(parsedWithout(text));
  });

  it('cuts a member first or last in its object, and leaves a page without one as it is', () => {
    const first = '{"items":[{"metadata":{"managedFields":[{"a":"]"}],"name":"x"}}]}';
    const last = '{"items":[{"metadata":{"name":"x","managedFields":[]}}]}';
    expect(JSON.parse(withoutManagedFields(first))).toEqual({ items: [{ metadata: { name: 'x' } }] });
    expect(JSON.parse(withoutManagedFields(last))).toEqual({ items: [{ metadata: { name: 'x' } }] });
    const none = listOf([item('web-0', false)]);
    expect(withoutManagedFields(none)).toBe(none);
  });

  it('leaves text it cannot follow (an array never closed) for the parser to refuse', () => {
    const broken = '{"items":[{"metadata":{"name":"x","managedFields":[{"a":1}';
    expect(withoutManagedFields(broken)).toBe(broken);
  });

  it('agrees with JSON.parse over 2,000 items', () => {
    const text = listOf(Array.from({ length: 2000 }, (_, i) => item(`web-${i}`, i % 3 !== 0)));
    expect(JSON.parse(withoutManagedFields(text))).toEqual(parsedWithout(text));
  });
});
