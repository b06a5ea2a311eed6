// The fields of the objects create_node takes (ObjectMeta, NodeSpec and the objects inside
// them), as the API names them. Written out rather than read from client-node's models: the
// check runs while arguments are validated, and loading client-node would slow every start-up.
// node-fields.test.ts keeps this table equal to the models of the client-node in use.

/** Type → field → the type of an object field (`X[]` for a list of them); '' for any other. */
export const API_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  V1ObjectMeta: {
    annotations: '',
    creationTimestamp: '',
    deletionGracePeriodSeconds: '',
    deletionTimestamp: '',
    finalizers: '',
    generateName: '',
    generation: '',
    labels: '',
    managedFields: 'V1ManagedFieldsEntry[]',
    name: '',
    namespace: '',
    ownerReferences: 'V1OwnerReference[]',
    resourceVersion: '',
    selfLink: '',
    uid: '',
  },
  V1NodeSpec: {
    configSource: 'V1NodeConfigSource',
    externalID: '',
    podCIDR: '',
    podCIDRs: '',
    providerID: '',
    taints: 'V1Taint[]',
    unschedulable: '',
  },
  V1Taint: { effect: '', key: '', timeAdded: '', value: '' },
  V1NodeConfigSource: { configMap: 'V1ConfigMapNodeConfigSource' },
  V1ConfigMapNodeConfigSource: {
    kubeletConfigKey: '',
    name: '',
    namespace: '',
    resourceVersion: '',
    uid: '',
  },
  V1OwnerReference: { apiVersion: '', blockOwnerDeletion: '', controller: '', kind: '', name: '', uid: '' },
  V1ManagedFieldsEntry: {
    apiVersion: '',
    fieldsType: '',
    fieldsV1: '',
    manager: '',
    operation: '',
    subresource: '',
    time: '',
  },
};

export interface UnknownField {
  /** Where, e.g. `taints[0].efect`. */
  path: string;
  /** The API's field name closest to it, when there is one. */
  suggestion?: string;
}

const normal = (key: string) => key.toLowerCase().replace(/_/g, '');

/**
 * The first field of `value` that the API object of type `type` (a key of API_FIELDS) does
 * not have, looked for at every depth the table describes.
 */
export function unknownField(value: unknown, type: string, path = ''): UnknownField | undefined {
  if (value === null || value === undefined) return undefined;
  if (type.endsWith('[]')) {
    if (!Array.isArray(value)) return undefined;
    for (const [i, item] of value.entries()) {
      const found = unknownField(item, type.slice(0, -2), `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  const fields = API_FIELDS[type];
  if (!fields || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(fields, key)) {
      const close = Object.keys(fields).find((field) => normal(field) === normal(key));
      return close ? { path: where, suggestion: close } : { path: where };
    }
    const found = unknownField(inner, fields[key] as string, where);
    if (found) return found;
  }
  return undefined;
}

/** The field names of `type`, in the API's order, for messages. */
export const fieldsOf = (type: string): string[] => Object.keys(API_FIELDS[type] ?? {});
