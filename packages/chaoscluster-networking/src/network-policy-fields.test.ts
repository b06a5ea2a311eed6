// The field table is the API's: the same fields, of the same kinds, as client-node's models
// (generated from the API's OpenAPI document), in the same order.
import * as models from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { OBJECTS, type ObjectName, PROPERTY_NAMES } from './network-policy-fields.js';

type Attribute = { name: string; baseName: string; type: string };
type Model = { getAttributeTypeMap(): Attribute[] };

/** client-node's type of a field, in the table's words. */
function kind(type: string): string {
  const list = /^Array<(.+)>$/.exec(type);
  if (list) return `${kind(list[1] as string)}[]`;
  if (type === '{ [key: string]: string; }') return 'map';
  const object = /^V1(.+)$/.exec(type)?.[1];
  return object && object in OBJECTS ? object : 'value';
}

describe('the NetworkPolicy field table', () => {
  it.each(Object.keys(OBJECTS) as ObjectName[])('%s has the fields of client-node V1%s', (object) => {
    const model = (models as unknown as Record<string, Model>)[`V1${object}`];
    expect(model, `V1${object}`).toBeDefined();
    const attributes = model!.getAttributeTypeMap();
    expect(Object.entries(OBJECTS[object])).toEqual(attributes.map((a) => [a.baseName, kind(a.type)]));
    const renamed = Object.fromEntries(
      attributes.filter((a) => a.name !== a.baseName).map((a) => [a.baseName, a.name]),
    );
    expect(PROPERTY_NAMES[object] ?? {}).toEqual(renamed);
  });

  it('names only objects it describes', () => {
    for (const fields of Object.values(OBJECTS)) {
      for (const type of Object.values(fields)) {
        const base = type.replace(/\[\]$/, '');
        expect(base === 'value' || base === 'map' || base in OBJECTS, type).toBe(true);
      }
    }
  });
});
