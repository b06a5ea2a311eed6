import * as models from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_FIELDS } from './node-fields.js';

interface Model {
  getAttributeTypeMap(): Array<{ baseName: string; type: string }>;
}

// client-node's `Array<X>` is the table's `X[]`; only the object types of the table count.
const asTableType = (type: string) => {
  const inner = /^Array<(.+)>$/.exec(type)?.[1];
  const name = inner ?? type;
  if (!Object.hasOwn(API_FIELDS, name)) return '';
  return inner ? `${name}[]` : name;
};

describe('the field table of create_node', () => {
  it("is client-node's models, field for field and in their order", () => {
    for (const [type, fields] of Object.entries(API_FIELDS)) {
      const model = (models as unknown as Record<string, Model>)[type];
      expect(model, type).toBeDefined();
      const expected = Object.fromEntries(
        model!.getAttributeTypeMap().map((a) => [a.baseName, asTableType(a.type)]),
      );
      expect(Object.entries(fields), type).toEqual(Object.entries(expected));
    }
  });
});
